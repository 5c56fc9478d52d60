import { z } from "zod";
import { captionStyleAnswerSchema, captionStyleResponseFormat, type CaptionStyleAnswer } from "./caption-judge-answers";
import { isContentCaptionType, promptCaptionType } from "./caption-types";
import { WORD_COUNTINGS } from "./count-words";
import { applyLengthRules, type LengthRulesInput, type LengthRulesResult } from "./length-rules";
import type { StepDefinition, VideoContext } from "../../task-modules/pipeline-types";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { captionOf, NO_REFERENCE_REASON } from "./caption-items";
import { CAPTION_STYLE_TASK } from "./caption-tasks";

/** Uniform frames per video: seed 003 does not say; AnyCapEval's own scripts use 4, FrameJury defaults to 8. */
export const DEFAULT_CAPTION_FRAMES = 8;

export const captionStyleSettingsSchema = z.strictObject({
  /** Which score counts (the `style` score and metric): after the length rules, or the judge's own. */
  countedScore: z.enum(["after_rules", "judge"]).default("after_rules"),
  /** Uniform frames per video the judge sees; the run uses each video's latest uniform frame set of this many. */
  frames: z.int().min(1).max(64).default(DEFAULT_CAPTION_FRAMES),
  /** How the length rules count words and sentences: FrameJury's rules, or exactly as AnyCapEval's scorer does. */
  wordCounting: z.enum(WORD_COUNTINGS).default("framejury"),
});
export type CaptionStyleSettings = z.output<typeof captionStyleSettingsSchema>;

/** The computed step's output: every rule with its counts, the cap, and the judge's score before and after. */
export interface CaptionLengthRulesOutput extends LengthRulesResult {
  rawScore: number;
  countedScore: number;
  counted: CaptionStyleSettings["countedScore"];
}

const noReference = (scopeIndex: number, context: VideoContext) =>
  context.items[scopeIndex]?.reference ? null : NO_REFERENCE_REASON;

export const CONTENT_TYPE_REASON =
  "it is a content caption type (action, background, …), which the key-point check judges, not the style rubric";

const steps: StepDefinition[] = [
  {
    id: "style_judge",
    label: "Style judge (seed 003 rubric)",
    scope: "item",
    templateId: "caption-rubric/judge",
    schema: captionStyleAnswerSchema,
    responseFormat: captionStyleResponseFormat(),
    dependsOn: () => [],
    skipReason: noReference,
    input: (scopeIndex, context) => {
      const caption = captionOf(context.items[scopeIndex]!);
      return {
        values: {
          caption_type: promptCaptionType(caption.captionType),
          output: caption.output,
          reference: caption.reference,
        },
        frames: context.frames,
      };
    },
    scores: (output) => [{ category: "style_raw", value: (output as CaptionStyleAnswer).score }],
  },
  {
    id: "length_rules",
    label: "Length rules (counted by FrameJury)",
    scope: "item",
    templateId: "computed/caption-length-rules",
    schema: z.custom<CaptionLengthRulesOutput>(),
    dependsOn: (scopeIndex) => [{ stepId: "style_judge", scopeIndex }],
    skipReason: noReference,
    input: (scopeIndex, context) => {
      const caption = captionOf(context.items[scopeIndex]!);
      const data: Omit<LengthRulesInput, "judgeScore"> & { scopeIndex: number } = {
        scopeIndex,
        captionType: caption.captionType,
        output: caption.output,
        reference: caption.reference,
        instruction: caption.instruction,
        restriction: caption.restriction || null,
        // In the step's input, so a run that counts otherwise computes its own rules.
        counting: captionStyleSettingsSchema.parse(context.settings ?? {}).wordCounting,
      };
      return { values: {}, frames: [], data };
    },
    compute: (input, context, outputs) => {
      const { scopeIndex, ...rulesInput } = input.data as Omit<LengthRulesInput, "judgeScore"> & { scopeIndex: number };
      const judged = outputs.get("style_judge", scopeIndex) as CaptionStyleAnswer;
      const result = applyLengthRules({ ...rulesInput, judgeScore: judged.score });
      const { countedScore: counted } = captionStyleSettingsSchema.parse(context.settings ?? {});
      return {
        ...result,
        rawScore: judged.score,
        counted,
        countedScore: counted === "judge" ? judged.score : result.scoreAfterRules!,
      } satisfies CaptionLengthRulesOutput;
    },
    scores: (output) => [{ category: "style", value: (output as CaptionLengthRulesOutput).countedScore }],
  },
];

export interface CaptionStyleItemSummary {
  itemId: string;
  style: number | null;
  style_raw: number | null;
  length_violation: number | null;
  judge_broke_rule: number | null;
}

/**
 * Seed 003's caption rubric judge: the LLM scores 0–4 (it sees the video's uniform frames, the caption
 * type, the output and the reference), then FrameJury applies the length rules from its own word and
 * sentence counts; it never asks the LLM to count.
 */
export const captionStylePipeline: RegisteredPipeline = {
  id: "caption_style",
  label: "Caption style (seed 003 rubric)",
  task: CAPTION_STYLE_TASK,
  steps,
  settingsSchema: captionStyleSettingsSchema,
  frames: (settings) => ({ mode: "uniform", count: captionStyleSettingsSchema.parse(settings ?? {}).frames }),
  // Unknown caption types are judged: seed 003's rubric is the only judge for them so far.
  items: {
    kind: "caption",
    setNoun: "caption",
    setField: "captionSetId",
    excludeReason: (item) =>
      !item.reference ? NO_REFERENCE_REASON : isContentCaptionType(item.group) ? CONTENT_TYPE_REASON : null,
  },
  summarize: (scores, context, _settings, outputs) => {
    const items: CaptionStyleItemSummary[] = context.items.map((item, scopeIndex) => {
      const value = (category: string) =>
        scores.find((s) => s.scopeIndex === scopeIndex && s.category === category)?.value ?? null;
      const rules = outputs.get("length_rules", scopeIndex) as CaptionLengthRulesOutput | null | undefined;
      return {
        itemId: item.id,
        style: value("style"),
        style_raw: value("style_raw"),
        length_violation: rules ? (rules.cap !== null ? 1 : 0) : null,
        judge_broke_rule: rules ? (rules.judgeBrokeRule ? 1 : 0) : null,
      };
    });
    return { items, complete: items.every((item) => item.style !== null) };
  },
  // Its metrics are per caption, not per video.
  metricValues: () => ({}),
  itemMetrics: (summary) =>
    (summary as { items: CaptionStyleItemSummary[] }).items.map(
      ({ itemId, style, length_violation, judge_broke_rule }) => ({
        itemId,
        values: { style_score: style, length_violation, judge_broke_rule },
      }),
    ),
};
