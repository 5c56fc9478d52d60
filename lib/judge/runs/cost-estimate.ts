/**
 * The cost before a run: the calls its engine would make (every planned step that asks an LLM: not computed, not
 * skipped for the video; a step settled by earlier answers counts as asked, since those answers are not known
 * yet), the pictures, video frames or video seconds each shows as the engine plans them
 * (lib/judge/input-modes/plan-request-media.ts, the same planner), input tokens by the endpoint's token rule
 * (lib/judge/endpoints/token-rules.ts) and the prompt's characters (with the lines the engine adds for a video part or
 * a grid), output tokens from the endpoint's history of the step
 * (its mean, with its 10th and 90th percentiles as the range), else from the step's answer schema
 * (lib/judge/runs/answer-length.ts), else DEFAULT_OUTPUT_TOKENS with DEFAULT_OUTPUT_RANGE; and the price, with the
 * range the output tokens' range gives it. Pure: the loader (cost-estimate-load.ts) reads what it needs.
 *
 * A step's prompt that quotes earlier answers (a knowledge graph) is rendered with the step's last stored answers
 * in the project when there are some, else with those placeholders empty. Repairs, retries and answers already
 * in the response cache are not foreseen: the estimate is of a run that asks every call once.
 */
import type { InputMode } from "../input-modes/index";
import type { EndpointCapabilities } from "../endpoints/endpoint-capabilities";
import { costOfPlan, planRequestMedia } from "../input-modes/plan-request-media";
import { requestNote, stepResponseFormat } from "../engine/build-request";
import { callCostUsd } from "../calls/lost-calls";
import { answerTokenRange, type TokenRange } from "./answer-length";
import { tokenRuleFor, type FrameSize, type ResolvedTokenRule, type TokenRuleEndpoint } from "../endpoints/token-rules";
import type { TemplateSource } from "../prompts/template-source";
import { planSteps, templateIdOf } from "../engine/pipeline";
import type {
  FrameRef,
  PipelineDefinition,
  StepDefinition,
  StepInput,
  StepOutputs,
  VideoContext,
} from "../../task-modules/pipeline-types";

/** Answer tokens per call when the endpoint has no history of the step and the step asks for no answer schema. */
export const DEFAULT_OUTPUT_TOKENS = 300;
const DEFAULT_OUTPUT_RANGE: TokenRange = { low: 50, typical: DEFAULT_OUTPUT_TOKENS, high: 1500 };

/** The endpoint's answers to a step so far: their mean tokens, and the 10th and 90th percentiles. */
export interface OutputHistory {
  mean: number;
  low: number;
  high: number;
}

/** A [least, most] pair: the range an estimate's figure may fall in. */
export type Range = [number, number];

export interface EstimateEndpoint extends TokenRuleEndpoint {
  pricePer1kInput: number | null;
  pricePer1kOutput: number | null;
  capabilities: EndpointCapabilities | null;
}

export interface EstimatePlan {
  pipeline: PipelineDefinition;
  videos: readonly VideoContext[];
  templates: TemplateSource;
  endpoint: EstimateEndpoint;
  /** Other endpoints of the project that steps call by role (StepDefinition.endpoint): their rules and prices. */
  roleEndpoints?: ReadonlyMap<string, EstimateEndpoint>;
  inputMode: InputMode;
  /** A batch-mode run: its requests carry pictures in every mode. */
  batch: boolean;
  /** A frame's stored size, when known. */
  frameSize(frame: FrameRef): FrameSize | null;
  /** The endpoint's earlier answers of a step, by step id. */
  outputHistory: ReadonlyMap<string, OutputHistory>;
  /** The step's last stored answer in the project, by step id: stands in for earlier answers a prompt quotes. */
  standIns: ReadonlyMap<string, unknown>;
}

export interface StepEstimate {
  stepId: string;
  calls: number;
  images: number;
  videoFrames: number;
  videoSeconds: number;
  inputTokens: number;
  outputTokens: number;
  /** The output tokens' range: the history's 10th to 90th percentiles, or a short to a long answer of the schema. */
  outputTokensRange: Range;
  /** At the prices of the endpoint the step calls; null when it has none. */
  costUsd: number | null;
  costUsdRange: Range | null;
  /** Where the answer tokens per call come from. */
  outputFrom: "history" | "schema" | "default";
}

export interface RunEstimate {
  calls: number;
  images: number;
  videoFrames: number;
  videoSeconds: number;
  inputTokens: number;
  outputTokens: number;
  outputTokensRange: Range;
  /** Null when no endpoint the run calls has prices. */
  costUsd: number | null;
  costUsdRange: Range | null;
  inputMode: InputMode;
  rule: { source: ResolvedTokenRule["source"]; charsPerToken: number };
  defaultOutputTokens: number;
  steps: StepEstimate[];
  /** Set when the run has more videos than the estimate read: the sample's sums were scaled to the run. */
  sampledVideos?: number;
}

export function estimateRun(plan: EstimatePlan): RunEstimate {
  const rule = tokenRuleFor(plan.endpoint);
  const byStep = new Map<string, StepEstimate>();
  for (const context of plan.videos) {
    for (const ref of planSteps(plan.pipeline, context)) {
      const step = plan.pipeline.steps.find((s) => s.id === ref.stepId)!;
      if (step.compute || step.skipReason?.(ref.scopeIndex, context)) continue;
      const endpoint = endpointOf(plan, step);
      const call = callOf(plan, { endpoint, rule: tokenRuleFor(endpoint) }, step, ref.scopeIndex, context);
      if (!call) continue;
      const entry = byStep.get(step.id) ?? emptyStep(plan, step.id);
      entry.calls += 1;
      entry.images += call.images;
      entry.videoFrames += call.videoFrames;
      entry.videoSeconds += call.videoSeconds;
      entry.inputTokens += call.inputTokens;
      const answer = answerLength(plan, step, call.input);
      entry.outputFrom = answer.from;
      entry.outputTokens += answer.range.typical;
      entry.outputTokensRange[0] += answer.range.low;
      entry.outputTokensRange[1] += answer.range.high;
      byStep.set(step.id, entry);
    }
  }
  const steps = plan.pipeline.steps.flatMap((s) => byStep.get(s.id) ?? []);
  for (const s of steps) {
    s.inputTokens = Math.round(s.inputTokens);
    s.outputTokens = Math.round(s.outputTokens);
    s.outputTokensRange = [Math.round(s.outputTokensRange[0]), Math.round(s.outputTokensRange[1])];
    s.videoSeconds = round2(s.videoSeconds);
    const endpoint = endpointOf(
      plan,
      plan.pipeline.steps.find((d) => d.id === s.stepId)!,
    );
    const priced = isPriced(endpoint);
    s.costUsd = priced ? callCostUsd(endpoint, s.inputTokens, s.outputTokens) : null;
    s.costUsdRange = priced
      ? [
          callCostUsd(endpoint, s.inputTokens, s.outputTokensRange[0]),
          callCostUsd(endpoint, s.inputTokens, s.outputTokensRange[1]),
        ]
      : null;
  }
  const sum = (pick: (s: StepEstimate) => number) => steps.reduce((total, s) => total + pick(s), 0);
  const inputTokens = sum((s) => s.inputTokens);
  const outputTokens = sum((s) => s.outputTokens);
  const priced = isPriced(plan.endpoint) || [...(plan.roleEndpoints?.values() ?? [])].some(isPriced);
  const sumRange = (pick: (s: StepEstimate) => Range | null): Range => [
    sum((s) => pick(s)?.[0] ?? 0),
    sum((s) => pick(s)?.[1] ?? 0),
  ];
  return {
    calls: sum((s) => s.calls),
    images: sum((s) => s.images),
    videoFrames: sum((s) => s.videoFrames),
    videoSeconds: round2(sum((s) => s.videoSeconds)),
    inputTokens,
    outputTokens,
    outputTokensRange: sumRange((s) => s.outputTokensRange),
    costUsd: priced ? sum((s) => s.costUsd ?? 0) : null,
    costUsdRange: priced ? sumRange((s) => s.costUsdRange) : null,
    inputMode: plan.inputMode,
    rule: { source: rule.source, charsPerToken: rule.charsPerToken },
    defaultOutputTokens: DEFAULT_OUTPUT_TOKENS,
    steps,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const isPriced = (endpoint: EstimateEndpoint) =>
  endpoint.pricePer1kInput !== null || endpoint.pricePer1kOutput !== null;

/** The endpoint a step calls: its role's, when the run assigned one, else the run's own. */
function endpointOf(plan: EstimatePlan, step: StepDefinition): EstimateEndpoint {
  return (step.endpoint ? plan.roleEndpoints?.get(step.endpoint) : undefined) ?? plan.endpoint;
}

function emptyStep(plan: EstimatePlan, stepId: string): StepEstimate {
  return {
    stepId,
    calls: 0,
    images: 0,
    videoFrames: 0,
    videoSeconds: 0,
    inputTokens: 0,
    outputTokens: 0,
    outputTokensRange: [0, 0],
    costUsd: null,
    costUsdRange: null,
    outputFrom: "default",
  };
}

/**
 * One answer's tokens: the endpoint's history of the step when it has one, else what the step's answer schema
 * allows (the schema the call would ask for, a rubric's pinned criteria included), else the default.
 */
function answerLength(
  plan: EstimatePlan,
  step: StepDefinition,
  input: StepInput | null,
): { from: StepEstimate["outputFrom"]; range: TokenRange } {
  const history = plan.outputHistory.get(step.id);
  if (history) return { from: "history", range: { low: history.low, typical: history.mean, high: history.high } };
  const schema = schemaOf(step, input);
  if (schema) return { from: "schema", range: answerTokenRange(schema) };
  return { from: "default", range: DEFAULT_OUTPUT_RANGE };
}

/** The schema the call would ask for (as the request builder reads it); the step's own when its input cannot be built. */
function schemaOf(step: StepDefinition, input: StepInput | null): Record<string, unknown> | null {
  if (!input) return step.responseFormat ?? null;
  try {
    return stepResponseFormat(step, input);
  } catch {
    return step.responseFormat ?? null;
  }
}

/** What one call of a step shows and its input tokens; null when the step would be settled without a call. */
function callOf(
  plan: EstimatePlan,
  calling: { endpoint: EstimateEndpoint; rule: ResolvedTokenRule },
  step: StepDefinition,
  scopeIndex: number,
  context: VideoContext,
) {
  const outputs = standInOutputs(plan, context);
  const input = inputOf(step, scopeIndex, context, outputs);
  if (input && settledWithoutCall(step, input, context, outputs)) return null;
  const frames = input?.frames ?? framesOfScope(step, scopeIndex, context);
  const template = step.inlineTemplate?.(context) ?? plan.templates.get(templateIdOf(step, scopeIndex, context));
  const text = renderedText(template, input?.values);
  // What the engine's request builder would show (lib/judge/input-modes/plan-request-media.ts), priced by its mode.
  const media = planRequestMedia({
    runMode: plan.inputMode,
    scope: step.scope,
    input: { frames, sendAs: input?.sendAs, ownFrames: input?.ownFrames },
    exampleFrames: exampleStandIns(template, context),
    clip: context.clip ?? null,
    batch: plan.batch,
    capabilities: calling.endpoint.capabilities,
  });
  const shown = costOfPlan(media, { rule: calling.rule, frameSize: plan.frameSize, context });
  // The lines the engine adds after the prompt (a video part's, a grid's), as it joins them.
  const note = requestNote(media);
  const sentText = note ? `${text}\n\n${note}` : text;
  return { ...shown, input, inputTokens: Math.ceil(sentText.length / calling.rule.charsPerToken) + shown.tokens };
}

/**
 * The template's few-shot example frames, as the request builder adds them after the step's own (never the judged
 * video's own examples): stand-ins of unknown size, read by the engine only when a call goes out.
 */
function exampleStandIns(template: ReturnType<TemplateSource["get"]>, context: VideoContext): FrameRef[] {
  return (template.examples ?? [])
    .filter((example) => example.videoId !== context.videoId)
    .flatMap((example) =>
      example.frames.map((f) => ({
        id: `example:${f.frameSetId}:${f.index}`,
        index: f.index,
        timestampS: 0,
        isKeyFrame: false,
        cluster: null,
        storageKey: "",
        sha256: f.sha256,
      })),
    );
}

/** Earlier answers as the project last stored them (or none): what a quoting prompt is rendered with. */
function standInOutputs(plan: EstimatePlan, context: VideoContext): StepOutputs {
  return {
    get: (stepId) => plan.standIns.get(stepId),
    all: (stepId) => {
      const count = planSteps(plan.pipeline, context).filter((ref) => ref.stepId === stepId).length;
      return Array.from({ length: count }, () => plan.standIns.get(stepId));
    },
  };
}

function inputOf(step: StepDefinition, scopeIndex: number, context: VideoContext, outputs: StepOutputs) {
  try {
    return step.input(scopeIndex, context, outputs);
  } catch {
    // The prompt quotes an earlier answer the project has never stored: its frames are those of its scope.
    return null;
  }
}

function settledWithoutCall(step: StepDefinition, input: StepInput, context: VideoContext, outputs: StepOutputs) {
  if (!step.settle) return false;
  try {
    return step.settle(input, context, outputs) !== null;
  } catch {
    return false;
  }
}

/** The frames a step of this scope shows when its input cannot be built before the run. */
function framesOfScope(step: StepDefinition, scopeIndex: number, context: VideoContext): FrameRef[] {
  switch (step.scope) {
    case "key_frame": {
      const frame = context.keyFrames[scopeIndex];
      return frame ? [frame] : [];
    }
    case "cluster":
      return context.clusters[scopeIndex] ?? [];
    case "video":
      return context.keyFrames;
    case "item":
      return [];
  }
}

/** Empty text for each placeholder a value is missing for: the template's own words still count. */
const EMPTY_VALUES: Record<string, string> = new Proxy(Object.create(null) as Record<string, string>, {
  get: (_target, name) => (typeof name === "string" ? "" : undefined),
});

function renderedText(template: ReturnType<TemplateSource["get"]>, values: Record<string, string> | undefined) {
  try {
    return template.render(values ?? EMPTY_VALUES);
  } catch {
    return template.render(EMPTY_VALUES);
  }
}
