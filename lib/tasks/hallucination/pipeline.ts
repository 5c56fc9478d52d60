import type { StepDefinition, StepOutputs, VideoContext } from "../../task-modules/pipeline-types";
import {
  dynamicHallucinationSchema,
  dynamicHallucinationScoreValues,
  dynamicKgSchema,
  formatDynamicKg,
  formatDynamicKgsForSummary,
  formatStaticKg,
  HALLUCINATION_TEMPLATE_IDS,
  inconsistencyScoreValues,
  inconsistencySchema,
  staticHallucinationScoreValues,
  staticHallucinationSchema,
  staticKgSchema,
  toResponseFormat,
  videoSummarySchema,
  type DynamicKg,
  type StaticKg,
  type VideoSummary,
} from "./schemas";
import {
  hallucinationAlignmentSettings,
  hallucinationInputsFromScoreRows,
  hallucinationSummarySettingsSchema,
  summarizeHallucinationScores,
} from "./scores";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { summaryMetricValues, type SubjectSummary } from "../../task-modules/task-display";
import { HALLUCINATION_TASK } from "./task";
import { hallucinationJudgeSpans } from "./judge-spans";

/**
 * Sora Detector's knowledge-graph hallucination pipeline (seed 000): static KG per key frame →
 * dynamic KG per cluster (given its key frame's KG) → video summary → prompt inconsistency;
 * static hallucination per key frame (given its KG); dynamic hallucination per cluster (given KG
 * and changes). The engine starts each step as soon as its inputs exist.
 *
 * The steps that put the video's prompt into their request (I compares it with the summary; the
 * seed's static and dynamic hallucination prompts tell the model the frames depict it) are
 * skipped for a video without one: a blank or a file name in its place would be scored as if it
 * were the prompt. The knowledge graphs and the summary read only the frames, so they still run
 * and the video page shows them; S, D, I and overall are then null and the summary incomplete.
 */
export const NO_PROMPT_REASON =
  "the video has no prompt (none in its file name, metadata or the project's prompt lists), and this step compares the video with its prompt";
const hasPrompt = (context: VideoContext) => (context.prompt ?? "").trim() !== "";
const needsPrompt = (_: number, context: VideoContext) => (hasPrompt(context) ? null : NO_PROMPT_REASON);
const prompt = (context: VideoContext) => {
  if (!hasPrompt(context)) throw new Error(`Not run: ${NO_PROMPT_REASON}.`);
  return context.prompt!;
};
const staticKg = (outputs: StepOutputs, k: number) => outputs.get("static_kg", k) as StaticKg;
const dynamicKg = (outputs: StepOutputs, c: number) => outputs.get("dynamic_kg", c) as DynamicKg;
const everyCluster = (stepId: string) => (_: number, context: VideoContext) =>
  context.clusters.map((__, c) => ({ stepId, scopeIndex: c }));

const steps: StepDefinition[] = [
  {
    id: "static_kg",
    label: "Static knowledge graph",
    scope: "key_frame",
    templateId: HALLUCINATION_TEMPLATE_IDS.static_kg,
    schema: staticKgSchema,
    responseFormat: toResponseFormat("static_kg"),
    dependsOn: () => [],
    input: (k, context) => ({ values: {}, frames: [context.keyFrames[k]!] }),
  },
  {
    id: "dynamic_kg",
    label: "Dynamic knowledge graph",
    scope: "cluster",
    templateId: HALLUCINATION_TEMPLATE_IDS.dynamic_kg,
    schema: dynamicKgSchema,
    responseFormat: toResponseFormat("dynamic_kg"),
    dependsOn: (c) => [{ stepId: "static_kg", scopeIndex: c }],
    input: (c, context, outputs) => ({
      values: { relation: formatStaticKg(staticKg(outputs, c)) },
      frames: context.clusters[c]!,
    }),
  },
  {
    id: "video_summary",
    label: "Video summary",
    scope: "video",
    templateId: HALLUCINATION_TEMPLATE_IDS.video_summary,
    schema: videoSummarySchema,
    responseFormat: toResponseFormat("video_summary"),
    dependsOn: everyCluster("dynamic_kg"),
    input: (_, context, outputs) => ({
      values: { changes: formatDynamicKgsForSummary(context.clusters.map((__, c) => dynamicKg(outputs, c))) },
      frames: context.keyFrames,
    }),
  },
  {
    id: "inconsistency",
    label: "Prompt inconsistency",
    scope: "video",
    templateId: HALLUCINATION_TEMPLATE_IDS.inconsistency,
    schema: inconsistencySchema,
    responseFormat: toResponseFormat("inconsistency"),
    skipReason: needsPrompt,
    dependsOn: () => [{ stepId: "video_summary", scopeIndex: 0 }],
    input: (_, context, outputs) => ({
      values: {
        original_prompt: prompt(context),
        generated_prompt: (outputs.get("video_summary", 0) as VideoSummary).summary,
      },
      frames: context.keyFrames,
    }),
    scores: (output) => inconsistencyScoreValues(output as never),
  },
  {
    id: "static_hallucination",
    label: "Static hallucination",
    scope: "key_frame",
    templateId: HALLUCINATION_TEMPLATE_IDS.static_hallucination,
    schema: staticHallucinationSchema,
    responseFormat: toResponseFormat("static_hallucination"),
    skipReason: needsPrompt,
    dependsOn: (k) => [{ stepId: "static_kg", scopeIndex: k }],
    input: (k, context, outputs) => ({
      values: { original_prompt: prompt(context), relation: formatStaticKg(staticKg(outputs, k)) },
      frames: [context.keyFrames[k]!],
    }),
    scores: (output) => staticHallucinationScoreValues(output as never),
  },
  {
    id: "dynamic_hallucination",
    label: "Dynamic hallucination",
    scope: "cluster",
    templateId: HALLUCINATION_TEMPLATE_IDS.dynamic_hallucination,
    schema: dynamicHallucinationSchema,
    responseFormat: toResponseFormat("dynamic_hallucination"),
    skipReason: needsPrompt,
    dependsOn: (c) => [
      { stepId: "static_kg", scopeIndex: c },
      { stepId: "dynamic_kg", scopeIndex: c },
    ],
    input: (c, context, outputs) => ({
      values: {
        original_prompt: prompt(context),
        relation: formatStaticKg(staticKg(outputs, c)),
        change: formatDynamicKg(dynamicKg(outputs, c)),
      },
      frames: context.clusters[c]!,
    }),
    scores: (output) => dynamicHallucinationScoreValues(output as never),
  },
];

export const hallucinationPipeline: RegisteredPipeline = {
  id: "hallucination",
  label: "Hallucination (Sora Detector knowledge graphs)",
  steps,
  settingsSchema: hallucinationSummarySettingsSchema,
  summarize: (scores, context, settings) =>
    summarizeHallucinationScores(
      hallucinationInputsFromScoreRows(scores, {
        keyFrameCount: context.keyFrames.length,
        clusterCount: context.clusters.length,
      }),
      hallucinationSummarySettingsSchema.parse(settings ?? {}),
    ),
  task: HALLUCINATION_TASK,
  // The same reading of the summary the pages use, so stored metrics and what pages show cannot drift.
  metricValues: (summary) => summaryMetricValues(HALLUCINATION_TASK, summary as SubjectSummary),
  alignmentSettings: hallucinationAlignmentSettings,
  judgeSpans: hallucinationJudgeSpans,
};
