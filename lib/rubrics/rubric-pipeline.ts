/**
 * A rubric task's pipeline: one LLM step per scope (the video, each key frame or each cluster), its prompt the
 * definition's template, its answer parsed against the criteria. The definition a run uses is the version it
 * pinned, kept whole in the run's settings, so a later edit never changes what a run sent or how it is read.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type {
  FrameRef,
  FrameRequirement,
  ItemRef,
  RegisteredPipeline,
  ScoreRow,
  StepDefinition,
  StepInput,
  VideoContext,
} from "../task-modules/pipeline-types";
import type { GenericItemPayload } from "../items/generic-items";
import type { InputMode } from "../judge/input-modes";
import { frameSetFitsPlan, planFrames } from "../frames/frame-plan";
import { callDefinition, RUBRIC_STEP, rubricCalls, type RubricCall } from "./rubric-calls";
import {
  aggregationOf,
  rubricItemKind,
  rubricMetricId,
  rubricTargetId,
  rubricTaskDeclaration,
} from "./rubric-declaration";
import {
  canonicalDefinition,
  promptVariables,
  rubricProblems,
  rubricScope,
  type RubricDefinition,
} from "./rubric-definition";
import {
  answerJsonSchema,
  answerSchema,
  examplesText,
  framesText,
  renderRubricPrompt,
  type RubricAnswer,
  type RubricPromptValues,
} from "./rubric-prompt";
import { frameKey } from "../storage/storage";
import { rubricTemplateHash } from "./rubric-template-hash";
import { localizedCriteria, numberedFramesText } from "./rubric-localize";
import { rubricJudgeSpans } from "./rubric-judge-spans";
import { scopeFrames } from "./rubric-scopes";

export { scopeCount, scopeFrames } from "./rubric-scopes";

/** What a rubric run stores as its settings: the version it pinned, whole. */
export interface RubricRunSettings {
  rubricVersionId: string;
  version: number;
  hash: string;
  definition: RubricDefinition;
  /** An unsaved candidate definition an alignment scores (lib/alignment): the version it was derived from is rubricVersionId. */
  candidate?: true;
}

/**
 * A candidate may reword definitions, the prompt, the guidelines and thresholds, never the criteria's ids, types,
 * scales or the frames: those make up the task's declaration, which every run of the task shares.
 */
export function candidateShapeProblem(latest: RubricDefinition, candidate: RubricDefinition): string | null {
  const shape = (d: RubricDefinition) =>
    JSON.stringify({
      frames: d.frames,
      subject: d.subject,
      criteria: d.criteria.map((c) => ({
        id: c.id,
        type: c.type,
        ...(c.type === "numeric" ? { min: c.min, max: c.max, step: c.step ?? null } : {}),
        ...(c.type === "categorical" ? { labels: c.labels.map((l) => l.label) } : {}),
      })),
    });
  return shape(latest) === shape(candidate)
    ? null
    : "a candidate definition must keep the rubric's frames, subject and criteria (ids, types, scales)";
}

/** The rubric task as the registry knows it: its latest version, which new runs pin. */
export interface RubricTaskRecord {
  id: string;
  key: number;
  projectId: string;
  name: string;
  archived: boolean;
  latest: { id: string; number: number; hash: string; definition: RubricDefinition };
}

function definitionOf(context: Pick<VideoContext, "settings">): RubricDefinition {
  return (context.settings as RubricRunSettings).definition;
}

const FRAME_WORDS = {
  uniform: "frames sampled evenly over the video",
  key_frames: "key frames of the video",
  each_key_frame: "key frame",
  each_cluster: "frames around one key frame",
} as const;

type ScopeContext = Pick<VideoContext, "prompt" | "frames" | "keyFrames" | "clusters"> & {
  items?: readonly Pick<ItemRef, "payload">[];
};

/** The prefix of an item field's value among a step's values (`item.text`), as the template names it. */
const ITEM_VALUE = "item.";
/** The step's values that number its frames for criteria that localise (never a template variable: no braces). */
const NUMBERED_FRAMES = "numbered frames";
const FRAME_COUNT = "frame count";

/** An item subject's declared fields of the scope's item (absent ones as ""); empty for a video subject. */
function itemValues(definition: RubricDefinition, scopeIndex: number, context: ScopeContext): Record<string, string> {
  if (definition.subject.kind !== "item") return {};
  const fields = (context.items?.[scopeIndex]?.payload as Partial<GenericItemPayload> | undefined)?.fields ?? {};
  return Object.fromEntries(
    definition.subject.fields.map((field) => [field.id, typeof fields[field.id] === "string" ? fields[field.id]! : ""]),
  );
}

/** The prompt values a step's input carries back into the template: `{{item.<field>}}` from its `item.<field>` values. */
export function rubricPromptValues(values: Record<string, string>): RubricPromptValues {
  const item = Object.fromEntries(
    Object.entries(values).flatMap(([key, value]) =>
      key.startsWith(ITEM_VALUE) ? [[key.slice(ITEM_VALUE.length), value]] : [],
    ),
  );
  const numbered = values[NUMBERED_FRAMES];
  return {
    prompt: values.prompt ?? "",
    frames: values.frames ?? "",
    item,
    ...(values.examples !== undefined ? { examples: values.examples } : {}),
    ...(numbered !== undefined ? { numbered: { text: numbered, count: Number(values[FRAME_COUNT]) } } : {}),
  };
}

/** Why a scope of a video cannot be judged, or null: a run skips it, a preview refuses it with these words. */
export function rubricSkipReason(
  definition: RubricDefinition,
  scopeIndex: number,
  context: ScopeContext,
): string | null {
  if (promptVariables(definition.prompt).includes("prompt") && !context.prompt)
    return "the rubric's prompt uses {{prompt}} and the video has no prompt";
  if (scopeFrames(definition, scopeIndex, context).length === 0) return "the video has no frames for this scope";
  if (definition.subject.kind === "item") {
    const values = itemValues(definition, scopeIndex, context);
    const missing = definition.subject.fields.find((field) => field.required && !values[field.id]?.trim());
    if (missing) return `the item has no ${missing.label} (${missing.id}), which the rubric requires`;
  }
  return null;
}

/**
 * A scope's frames and the values its prompt renders: a run's step and a preview send the very same request. The
 * definition's few-shot examples (never one of the judged video itself) follow with their frames, read from the
 * task's project's storage (`frameKey` of that project, whatever the definition says). Key frames and clusters with
 * a frame size are scaled down to it when sent (`imageMaxSide`); a uniform set is extracted at its size
 * (framesRequirement), so it is sent as it is.
 */
export function rubricScopeInput(
  definition: RubricDefinition,
  scopeIndex: number,
  context: ScopeContext & { videoId?: string },
  projectId?: string,
): {
  values: Record<string, string>;
  frames: FrameRef[];
  imageMaxSide?: number;
  sendAs?: "images";
  ownFrames?: number;
} {
  const frames = scopeFrames(definition, scopeIndex, context);
  const what =
    frames.length === 1 && definition.frames.mode === "each_key_frame"
      ? "key frame"
      : FRAME_WORDS[definition.frames.mode];
  const size = {
    ...(definition.frames.mode !== "uniform" && definition.frames.longestSide
      ? { imageMaxSide: definition.frames.longestSide }
      : {}),
    ...(definition.frames.input === "images" ? { sendAs: "images" as const } : {}),
  };
  const item = Object.fromEntries(
    Object.entries(itemValues(definition, scopeIndex, context)).map(([field, value]) => [
      `${ITEM_VALUE}${field}`,
      value,
    ]),
  );
  const values: Record<string, string> = { prompt: context.prompt ?? "", frames: framesText(frames, what), ...item };
  if (localizedCriteria(definition).length > 0) {
    values[NUMBERED_FRAMES] = numberedFramesText(frames);
    values[FRAME_COUNT] = String(frames.length);
  }
  const examples = projectId ? (definition.examples ?? []).filter((e) => e.videoId !== context.videoId) : [];
  if (examples.length === 0) return { values, frames, ...size };
  const exampleFrames = examples.flatMap((e) =>
    e.frames.map((f) => ({
      id: f.id,
      index: f.index,
      timestampS: f.timestampS,
      isKeyFrame: false,
      cluster: null,
      storageKey: frameKey(projectId!, f.frameSetId, f.index),
      sha256: f.sha256,
    })),
  );
  return {
    values: { ...values, examples: examplesText(examples, frames.length) },
    frames: [...frames, ...exampleFrames],
    // The examples' frames are other videos': they follow as images, never inside the judged video's video part.
    ownFrames: frames.length,
    ...size,
  };
}

/** One video's value of each criterion from its per-scope scores; null where the judge gave none. */
export function aggregateCriteria(
  key: number,
  definition: RubricDefinition,
  scores: readonly Pick<ScoreRow, "category" | "value">[],
): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  for (const criterion of definition.criteria) {
    const own = scores.filter((s) => s.category === rubricTargetId(key, criterion.id)).map((s) => s.value);
    values[criterion.id] = aggregate(aggregationOf(criterion), own);
  }
  return values;
}

function aggregate(how: "mean" | "max" | "min" | "majority", values: number[]): number | null {
  if (values.length === 0) return null;
  if (how === "mean") return values.reduce((a, b) => a + b, 0) / values.length;
  if (how === "max") return Math.max(...values);
  if (how === "min") return Math.min(...values);
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  // A tie goes to the higher value, so the same scores always give the same answer.
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
}

/**
 * One call's step: the scope's frames with the criteria of that call (lib/rubrics/rubric-calls.ts), read from the run's
 * pinned definition; answers are parsed against those criteria (and, for criteria that localise, the call's frames).
 */
function rubricStep(record: RubricTaskRecord, call: RubricCall): StepDefinition<RubricAnswer> {
  const { key } = record;
  const latest = record.latest.definition;
  // What the call judges in a video input mode (the step's declared schema; each video's is read from its run).
  const own = callDefinition(latest, call.stepId, "video-frames") ?? latest;
  const scope = rubricScope(latest);
  // Parsing the answer is the same for every call of a run with as many frames (criteria that localise name frames
  // of the call).
  const schemas = new WeakMap<object, Map<number, z.ZodType<RubricAnswer>>>();
  const schemaOf = (definition: RubricDefinition, frameCount: number) => {
    let byCount = schemas.get(definition);
    if (!byCount) schemas.set(definition, (byCount = new Map()));
    let schema = byCount.get(frameCount);
    if (!schema) byCount.set(frameCount, (schema = answerSchema(definition, frameCount)));
    return schema;
  };
  // The definition this call sends for a video (null: the call is not made in the run's input mode), made once per
  // pinned definition and mode: a split rubric's call definition is a new object, and the answer schemas above are
  // kept by definition object.
  const calls = new WeakMap<RubricDefinition, Map<InputMode | undefined, RubricDefinition | null>>();
  const callOf = (context: Pick<VideoContext, "settings" | "inputMode">) => {
    const pinned = definitionOf(context);
    let byMode = calls.get(pinned);
    if (!byMode) calls.set(pinned, (byMode = new Map()));
    if (!byMode.has(context.inputMode))
      byMode.set(context.inputMode, callDefinition(pinned, call.stepId, context.inputMode));
    return byMode.get(context.inputMode) ?? null;
  };
  const dataOf = (input: StepInput) => input.data as { definition: RubricDefinition; frameCount: number };
  return {
    id: call.stepId,
    label:
      call.stepId === RUBRIC_STEP
        ? `Judge by the rubric "${latest.name}"`
        : `Judge by the rubric "${latest.name}": the criteria shown ${call.input === "images" ? "stills" : "the video"}`,
    scope,
    templateId: `rubric/${record.id.toLowerCase()}${call.stepId === RUBRIC_STEP ? "" : `/${call.input}`}`,
    schema: answerSchema(own),
    schemaFor: (input) => schemaOf(dataOf(input).definition, dataOf(input).frameCount),
    responseFormat: answerJsonSchema(own),
    responseFormatFor: (input) => answerJsonSchema(dataOf(input).definition),
    inlineTemplate: (context) => {
      const definition = callOf(context) ?? definitionOf(context);
      return {
        hash: rubricTemplateHash(definition),
        render: (values) => renderRubricPrompt(definition, rubricPromptValues(values)),
      };
    },
    dependsOn: () => [],
    skipReason: (scopeIndex, context) => {
      const definition = callOf(context);
      if (!definition)
        return "in a run that sends every frame as an image, the rubric's first call judges every criterion";
      return rubricSkipReason(definition, scopeIndex, context);
    },
    input: (scopeIndex, context) => {
      const definition = callOf(context) ?? definitionOf(context);
      const frameCount = scopeFrames(definition, scopeIndex, context).length;
      return {
        ...rubricScopeInput(definition, scopeIndex, context, record.projectId),
        data: { definition, frameCount },
      };
    },
    scores: (output, input) =>
      dataOf(input).definition.criteria.flatMap((c) =>
        output.values[c.id] === undefined ? [] : [{ category: rubricTargetId(key, c.id), value: output.values[c.id]! }],
      ),
    scoreKeys: (input) =>
      Object.fromEntries(dataOf(input).definition.criteria.map((c) => [rubricTargetId(key, c.id), c.id])),
  };
}

export function rubricPipeline(record: RubricTaskRecord): RegisteredPipeline {
  const { key } = record;
  const latest = record.latest.definition;
  const task = rubricTaskDeclaration(key, latest);
  return {
    id: task.id,
    label: latest.name,
    task,
    projectId: record.projectId,
    steps: rubricCalls(latest).map((call) => rubricStep(record, call) as StepDefinition),
    settingsSchema: z
      .object({})
      .passthrough()
      .transform((input, ctx) => {
        if (record.archived) {
          ctx.addIssue({
            code: "custom",
            message: `The rubric task "${record.name}" is archived: restore it on the Rubric tasks page to start runs.`,
          });
          return z.NEVER;
        }
        if ("candidateDefinition" in input) {
          const { definition, problems } = rubricProblems(input.candidateDefinition);
          const problem = definition
            ? candidateShapeProblem(latest, definition)
            : problems.map((p) => `${p.path}: ${p.message}`).join("; ");
          if (!definition || problem) {
            ctx.addIssue({ code: "custom", message: `candidateDefinition: ${problem}` });
            return z.NEVER;
          }
          const hash = createHash("sha256").update(canonicalDefinition(definition)).digest("hex");
          return {
            rubricVersionId: record.latest.id,
            version: record.latest.number,
            hash,
            definition,
            candidate: true,
          } satisfies RubricRunSettings;
        }
        return {
          rubricVersionId: record.latest.id,
          version: record.latest.number,
          hash: record.latest.hash,
          definition: latest,
        } satisfies RubricRunSettings;
      }),
    frames: (settings) => framesRequirement((settings as Partial<RubricRunSettings>)?.definition ?? latest),
    // Only a definition whose criteria localise says where: the others' runs never read their videos' frame times.
    ...(localizedCriteria(latest).length > 0
      ? { judgeSpans: (input) => rubricJudgeSpans(key, definitionOf(input), input) }
      : {}),
    ...(latest.subject.kind === "item" ? itemSubject(record) : videoSubject(key, latest)),
  };
}

/** A video subject: the summary is keyed by metric id, as the video page's "Judge:" line reads a summary (summaryMetricValues). */
function videoSubject(key: number, latest: RubricDefinition): Pick<RegisteredPipeline, "summarize" | "metricValues"> {
  return {
    summarize: (scores, context) => {
      const values = aggregateCriteria(key, definitionOf(context), scores);
      return Object.fromEntries(
        Object.entries(values).map(([criterionId, value]) => [rubricMetricId(key, criterionId), value]),
      );
    },
    metricValues: (summary) => {
      const values = (summary ?? {}) as Record<string, number | null | undefined>;
      return Object.fromEntries(
        latest.criteria.map((c) => [rubricMetricId(key, c.id), values[rubricMetricId(key, c.id)] ?? null]),
      );
    },
  };
}

/** One item's criterion values in a run's summary, by metric id (null where the judge gave none). */
export interface RubricItemSummary {
  itemId: string;
  values: Record<string, number | null>;
}

/**
 * An item subject: one call per item of the run's set (the rubric's item kind), and its values stored per item
 * (run_metric rows with the item's id), as a QA run stores each question's. The video itself gets no metric.
 */
function itemSubject(
  record: RubricTaskRecord,
): Pick<RegisteredPipeline, "summarize" | "metricValues" | "items" | "itemMetrics"> {
  const { key } = record;
  return {
    items: { kind: rubricItemKind(key), setNoun: `${record.name} item` },
    summarize: (scores, context) => {
      const definition = definitionOf(context);
      const items: RubricItemSummary[] = context.items.map((item, scopeIndex) => ({
        itemId: item.id,
        values: Object.fromEntries(
          definition.criteria.map((c) => [
            rubricMetricId(key, c.id),
            scores.find((s) => s.scopeIndex === scopeIndex && s.category === rubricTargetId(key, c.id))?.value ?? null,
          ]),
        ),
      }));
      return { items };
    },
    metricValues: () => ({}),
    itemMetrics: (summary) =>
      ((summary as { items?: RubricItemSummary[] } | null)?.items ?? []).map((item) => ({
        itemId: item.itemId,
        values: item.values,
      })),
  };
}

export function framesRequirement(definition: RubricDefinition): FrameRequirement {
  const frames = definition.frames;
  if (frames.mode !== "uniform") return { mode: "key_frames" };
  if (!frames.longestSide) return { mode: "uniform", count: frames.count };
  const px = frames.longestSide;
  return {
    mode: "uniform",
    count: frames.count,
    label: `a uniform frame set of ${frames.count} frames with a longest side of ${px} px`,
    accepts: (video, set) => {
      const plan = planFrames(video, { mode: "longest_side", px });
      return plan.ok && frameSetFitsPlan(plan, set);
    },
  };
}
