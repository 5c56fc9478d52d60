/**
 * The frames VBench-2.0's evaluators show LLaVA-Video and the time instruction that describes them
 * (every `load_video` in VBench-2.0/vbench2/*.py with max_frames_num=64 and force_sample=True):
 *
 *     frame_idx  = np.linspace(0, total_frames - 1, 64, dtype=int)
 *     frame_time = ",".join(f"{i / avg_fps:.2f}s" for i in frame_idx)
 *     video_time = total_frames / avg_fps                      # written as f"{video_time:.2f}"
 *
 * The run's frame set is the video's uniform set of 64 (lib/frames); a clip shorter than 64 frames repeats
 * indices there as decord's get_batch does, so each wanted index is looked up in the set. An endpoint that takes
 * fewer images gets the most it takes, spread the same way over the 64, and the deviation is recorded.
 */
import type { FrameRef, VideoContext } from "../../task-modules/pipeline-types";
import { pythonFixed2, vbenchUniformIndices } from "../../frames/vbench-uniform";

export const VBENCH2_FRAME_COUNT = 64;

export interface SampledFrames {
  frames: FrameRef[];
  /** Each frame's time as VBench writes it ("0.13s"). */
  times: string[];
  /** total_frames / avg_fps, unrounded. */
  videoTime: number;
  /** Why the frames are not VBench's 64 (the endpoint's image limit, a frame set that lacks an index), or null. */
  deviation: string | null;
}

function frameSeconds(frame: FrameRef, fps: number | null): number {
  return fps && fps > 0 ? frame.index / fps : frame.timestampS;
}

// Every step of a video asks for the same frames (and its summary again): computed once per frame set and limit.
const sampledByFrames = new WeakMap<readonly FrameRef[], Map<string, SampledFrames>>();

/** The frames every question of a video is asked with, and their times. */
export function sampledFrames(
  context: Pick<VideoContext, "frames" | "fps" | "frameCount" | "imageLimit">,
): SampledFrames {
  let byFacts = sampledByFrames.get(context.frames);
  if (!byFacts) sampledByFrames.set(context.frames, (byFacts = new Map()));
  const facts = `${context.fps}|${context.frameCount}|${context.imageLimit}`;
  let sampled = byFacts.get(facts);
  if (!sampled) byFacts.set(facts, (sampled = computeSampledFrames(context)));
  return sampled;
}

function computeSampledFrames(
  context: Pick<VideoContext, "frames" | "fps" | "frameCount" | "imageLimit">,
): SampledFrames {
  const stored = [...context.frames].sort((a, b) => a.index - b.index);
  const byIndex = new Map(stored.map((frame) => [frame.index, frame]));
  const deviations: string[] = [];
  let frames: FrameRef[] = stored;
  if (context.frameCount && context.frameCount > 0) {
    const wanted = vbenchUniformIndices(context.frameCount, VBENCH2_FRAME_COUNT).map((index) => byIndex.get(index));
    if (wanted.every((frame): frame is FrameRef => frame !== undefined)) frames = wanted;
    else
      deviations.push(
        `the frame set is not VBench's 64 uniform frames of ${context.frameCount}: its ${stored.length} stored frames are sent`,
      );
  }
  if (context.imageLimit !== null && context.imageLimit < frames.length) {
    const total = frames.length;
    frames = vbenchUniformIndices(total, context.imageLimit).map((position) => frames[position]!);
    deviations.push(`${frames.length} of ${total} frames: the endpoint takes at most ${context.imageLimit} images`);
  }
  const last = stored[stored.length - 1];
  const videoTime = context.frameCount && context.fps ? context.frameCount / context.fps : last ? last.timestampS : 0;
  return {
    frames,
    times: frames.map((frame) => `${pythonFixed2(frameSeconds(frame, context.fps))}s`),
    videoTime,
    deviation: deviations.length ? deviations.join("; ") : null,
  };
}

/** The time instruction's values: `{video_time:.2f}`, `len(video[0])` and the comma-joined frame times. */
export function timeInstructionValues(sampled: SampledFrames): {
  video_time: string;
  frame_count: string;
  frame_time: string;
} {
  return {
    video_time: pythonFixed2(sampled.videoTime),
    frame_count: String(sampled.frames.length),
    frame_time: sampled.times.join(","),
  };
}
