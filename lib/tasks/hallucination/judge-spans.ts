/**
 * The hallucination judge's spans: where its scores say a category is present. Each static category (s1–s10) that
 * reaches the threshold on a key frame is a one-frame span at that key frame's video frame; each dynamic category
 * (d1–d9) that reaches it on a cluster is a span over the cluster's frames (its first to its last in the video).
 * Spans of one category that overlap or touch merge.
 *
 * The threshold is the run's verdict threshold when the verdict is on the worst category (a category "present" is
 * then exactly what makes the verdict yes); under a verdict on the overall score, whose threshold is on 0–100, the
 * task's presence threshold (5, "moderate").
 *
 * Prompt inconsistency gets no span: the judge compares the prompt with its summary of the whole video and never
 * says where the departure is, and a span over the whole video would claim every frame is wrong, which temporal
 * agreement would then count against whoever marked the moment. Its score stays the video's value.
 */
import { videoFrameOfSample, videoFramesOfSamples } from "../../judge/engine/judge-span-drafts";
import type { JudgeSpanDraft, JudgeSpanInput } from "../../task-modules/judge-span-types";
import { mergeNeighbouringSpans } from "../../spans/judge-spans";
import { DYNAMIC_CATEGORY_IDS, STATIC_CATEGORY_IDS } from "./schemas";
import { hallucinationSummarySettingsSchema } from "./scores";
import { HALLUCINATION_TASK } from "./task";

const STATIC = new Set<string>(STATIC_CATEGORY_IDS);
const DYNAMIC = new Set<string>(DYNAMIC_CATEGORY_IDS);

/** The score at or above which a category is present in the run's spans. */
export function hallucinationSpanThreshold(settings: unknown): number {
  const parsed = hallucinationSummarySettingsSchema.safeParse(settings ?? {});
  const verdict = parsed.success ? parsed.data.verdict : null;
  if (verdict?.on === "max_category") return verdict.threshold;
  return HALLUCINATION_TASK.presence!.defaultThreshold;
}

const score = (value: number) => String(Math.round(value * 100) / 100);

export function hallucinationJudgeSpans(input: JudgeSpanInput): JudgeSpanDraft[] {
  const threshold = hallucinationSpanThreshold(input.settings);
  const { keyFrames, clusters } = input.context;
  const drafts: JudgeSpanDraft[] = [];
  for (const row of input.scores) {
    if (!(row.value >= threshold)) continue;
    if (row.stepId === "static_hallucination" && STATIC.has(row.category)) {
      const keyFrame = keyFrames[row.scopeIndex];
      if (!keyFrame) continue;
      const frame = videoFrameOfSample(input.times, keyFrame.timestampS);
      drafts.push({
        label: row.category,
        startFrame: frame,
        endFrame: frame,
        note: `${row.category} ${score(row.value)} on key frame ${row.scopeIndex + 1}`,
      });
    } else if (row.stepId === "dynamic_hallucination" && DYNAMIC.has(row.category)) {
      const frames = videoFramesOfSamples(input.times, clusters[row.scopeIndex] ?? []);
      if (!frames) continue;
      drafts.push({
        label: row.category,
        ...frames,
        note: `${row.category} ${score(row.value)} on cluster ${row.scopeIndex + 1}`,
      });
    }
  }
  return mergeNeighbouringSpans(drafts);
}
