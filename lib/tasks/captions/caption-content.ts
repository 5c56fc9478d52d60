import { z } from "zod";
import {
  captionContentAnswerSchema,
  captionContentResponseFormat,
  formatKeyPoints,
  type CaptionContentAnswer,
} from "./caption-judge-answers";
import { promptCaptionType } from "./caption-types";
import type { ItemRef, StepDefinition, VideoContext } from "../../task-modules/pipeline-types";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { captionOf, NO_REFERENCE_REASON } from "./caption-items";
import { CAPTION_CONTENT_TASK } from "./caption-tasks";
import { DEFAULT_CAPTION_FRAMES } from "./caption-style";

export const captionContentSettingsSchema = z.strictObject({
  frames: z.int().min(1).max(64).default(DEFAULT_CAPTION_FRAMES),
});

export const NO_KEY_POINTS_REASON = "its reference has no key points";

function keyPointsOf(item: ItemRef): string[] | null {
  if (!item.reference) return null;
  const keyPoints = captionOf(item).keyPoints;
  return keyPoints && keyPoints.length > 0 ? keyPoints : null;
}

const unjudgeable = (scopeIndex: number, context: VideoContext) => {
  const item = context.items[scopeIndex]!;
  return !item.reference ? NO_REFERENCE_REASON : keyPointsOf(item) ? null : NO_KEY_POINTS_REASON;
};

/** The score category of key point n (1-based): the target is "key_point", the index says which. */
export const keyPointCategory = (index: number) => `kp:${index}`;

const steps: StepDefinition[] = [
  {
    id: "key_points",
    label: "Key-point check (AnyCapEval content)",
    scope: "item",
    templateId: "caption-content/judge",
    // Checked against the item's own key points: the keys must match them and the total their sum.
    schema: z.never(),
    schemaFor: (input) => captionContentAnswerSchema((input.data as { keyPoints: string[] }).keyPoints),
    responseFormat: captionContentResponseFormat(),
    dependsOn: () => [],
    skipReason: unjudgeable,
    input: (scopeIndex, context) => {
      const item = context.items[scopeIndex]!;
      const caption = captionOf(item);
      const keyPoints = keyPointsOf(item)!;
      return {
        values: {
          caption_type: promptCaptionType(caption.captionType),
          instruction: caption.instruction,
          key_points: formatKeyPoints(keyPoints),
          output: caption.output,
        },
        frames: context.frames,
        data: { keyPoints },
      };
    },
    scores: (output) =>
      (output as CaptionContentAnswer).keyPoints.map((kp) => ({
        category: keyPointCategory(kp.index),
        value: kp.score,
      })),
  },
];

export interface CaptionContentItemSummary {
  itemId: string;
  key_points_hit: number | null;
  key_points_total: number | null;
  coverage: number | null;
}

/** AnyCapEval's content evaluation: each of the reference's key points scores 0 or 1, the total is their sum. */
export const captionContentPipeline: RegisteredPipeline = {
  id: "caption_content",
  label: "Caption content (key points)",
  task: CAPTION_CONTENT_TASK,
  steps,
  settingsSchema: captionContentSettingsSchema,
  frames: (settings) => ({ mode: "uniform", count: captionContentSettingsSchema.parse(settings ?? {}).frames }),
  items: {
    kind: "caption",
    setNoun: "caption",
    setField: "captionSetId",
    excludeReason: (item) => (!item.reference ? NO_REFERENCE_REASON : keyPointsOf(item) ? null : NO_KEY_POINTS_REASON),
  },
  summarize: (scores, context) => {
    const items: CaptionContentItemSummary[] = context.items.map((item, scopeIndex) => {
      const own = scores.filter((s) => s.scopeIndex === scopeIndex && s.stepId === "key_points");
      const total = keyPointsOf(item)?.length ?? null;
      if (own.length === 0 || total === null)
        return { itemId: item.id, key_points_hit: null, key_points_total: total, coverage: null };
      const hit = own.reduce((sum, s) => sum + s.value, 0);
      return { itemId: item.id, key_points_hit: hit, key_points_total: total, coverage: hit / total };
    });
    return { items, complete: items.every((item) => item.coverage !== null) };
  },
  // Its metrics are per caption, not per video.
  metricValues: () => ({}),
  itemMetrics: (summary) =>
    (summary as { items: CaptionContentItemSummary[] }).items.map(({ itemId, ...values }) => ({ itemId, values })),
};
