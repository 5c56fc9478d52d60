/**
 * VBench-2.0 Dynamic_Spatial_Relationship (dynamic_spatial_relationship.py): question 1 about the first 32 of the
 * 64 frames, question 2 about the last frame alone; 1 when both are yes, else 0; the score is the mean.
 *
 * Faithful to its code, question 1's instruction says half the video's length, "1 frames" (`len(video[0])//2`
 * where `video[0]` is one frame's 3 colour channels) and the first half of the timestamps string's characters
 * (`frame_time[:len(frame_time)//2]`, which can cut a timestamp in two). The `corrected` variant says 32 and lists
 * the first 32 timestamps.
 */
import {
  known,
  missingInfo,
  questionCategory,
  questionList,
  stepId,
  valueOf,
  type Vbench2Dimension,
} from "../dimension";
import { pythonFixed2 } from "../../../frames/vbench-uniform";
import { vbench2SettingsOf } from "../settings";
import { vlmStep } from "../steps";

const DIMENSION = "Dynamic_Spatial_Relationship";

export const dynamicSpatialRelationship: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: [
    vlmStep({
      dimension: DIMENSION,
      id: stepId(DIMENSION, "q1"),
      label: `${DIMENSION}: question 1 (first half of the frames)`,
      templateId: "vbench2/dynamic-spatial-relationship-first",
      category: questionCategory(DIMENSION, 0),
      missing: (context) => (questionList(context, DIMENSION) ? null : missingInfo(DIMENSION)),
      frames: (sampled) => sampled.frames.slice(0, Math.floor(sampled.frames.length / 2)),
      values: (context, sampled) => {
        const half = Math.floor(sampled.frames.length / 2);
        const faithful = vbench2SettingsOf(context).variant === "faithful";
        const frameTime = sampled.times.join(",");
        return {
          video_time: pythonFixed2(sampled.videoTime / 2),
          frame_count: faithful ? "1" : String(half),
          frame_time: faithful
            ? frameTime.slice(0, Math.floor(frameTime.length / 2))
            : sampled.times.slice(0, half).join(","),
          question: questionList(context, DIMENSION)![0]!,
        };
      },
    }),
    vlmStep({
      dimension: DIMENSION,
      id: stepId(DIMENSION, "q2"),
      label: `${DIMENSION}: question 2 (the last frame)`,
      templateId: "vbench2/dynamic-spatial-relationship-last",
      category: questionCategory(DIMENSION, 1),
      planned: (context) => (questionList(context, DIMENSION)?.length ?? 0) > 1,
      frames: (sampled) => sampled.frames.slice(-1),
      values: (context) => ({ question: questionList(context, DIMENSION)![1]! }),
    }),
  ],
  questions: (context) =>
    (questionList(context, DIMENSION) ?? [])
      .slice(0, 2)
      .map((text, k) => ({ text, stepId: stepId(DIMENSION, `q${k + 1}`) })),
  videoValue: (answers) => (answers.length && known(answers) ? valueOf(answers.every(Boolean) ? 1 : 0) : valueOf(null)),
};
