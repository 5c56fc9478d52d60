/**
 * The cost before a pairwise run: every pair, every aspect, BOTH orders (two calls per question). Each call shows
 * what the question would (./pairwise-request.ts pairShowing): both videos' frames as the engine's planner plans them,
 * or the two clips sampled at the frames per video, priced by the endpoint's token rule as the single-video estimate
 * prices its calls (lib/judge/runs/cost-estimate.ts); the prompt's characters add their tokens; answers are counted at
 * the estimate's default length and range (a pairwise answer asks for no schema).
 */
import type { EndpointCapabilities } from "../../judge/endpoints/endpoint-capabilities";
import { tokenRuleFor, type FrameSize } from "../../judge/endpoints/token-rules";
import { callCostUsd } from "../../judge/calls/lost-calls";
import { costOfPlan, planRequestMedia } from "../../judge/input-modes/plan-request-media";
import {
  DEFAULT_OUTPUT_TOKENS,
  type EstimateEndpoint,
  type RunEstimate,
  type StepEstimate,
} from "../../judge/runs/cost-estimate";
import type { TemplateSource } from "../../judge/prompts/template-source";
import type { ClipRef, FrameRef } from "../../task-modules/pipeline-types";
import type { InputMode } from "../../judge/input-modes";
import type { MediaPlan } from "../../judge/input-modes/media-plan";
import type { Aspect } from "../aspects";
import { clipListText, frameListText, pairClipSampling, pairShowing, PAIRWISE_TEMPLATE_ID } from "./pairwise-request";
import { PAIR_ORDERS } from "./reconcile";
import { verdictLabelLines } from "./verdict-label";

/** A pair as the estimate sees it: its prompt, the sizes of the frames each video shows, and each one's file. */
export interface EstimatedPair {
  prompt: string;
  a: FrameSize[];
  b: FrameSize[];
  /** The videos' files (null: none to send, a honeypot's broken copy); absent: the run sends pictures. */
  clipA?: ClipRef | null;
  clipB?: ClipRef | null;
}

/** The default answer's range (DEFAULT_OUTPUT_TOKENS typical), as the single-video estimate counts a schema-less answer. */
const ANSWER = { low: 50, typical: DEFAULT_OUTPUT_TOKENS, high: 1500 };

const standIn = (size: FrameSize, i: number): FrameRef & FrameSize => ({
  id: `estimate:${i}`,
  index: i,
  timestampS: i,
  isKeyFrame: false,
  cluster: null,
  storageKey: "",
  sha256: "",
  ...size,
});

export function estimatePairwiseRun(plan: {
  endpoint: EstimateEndpoint & { capabilities: EndpointCapabilities | null };
  templates: TemplateSource;
  aspects: readonly Aspect[];
  pairs: readonly EstimatedPair[];
  /** The run's input mode (pairwise-run.ts pairwiseInputMode); `images` when absent. */
  inputMode?: InputMode;
  /** Set when `pairs` is a sample of this many: the sums are scaled to the run. */
  totalPairs?: number;
}): RunEstimate {
  const rule = tokenRuleFor(plan.endpoint);
  const template = plan.templates.get(PAIRWISE_TEMPLATE_ID);
  const scale = plan.totalPairs && plan.pairs.length ? plan.totalPairs / plan.pairs.length : 1;
  const pricing = {
    rule,
    frameSize: (f: FrameRef) => f as FrameRef & FrameSize,
    context: { fps: null, frameCount: null },
  };
  const steps: StepEstimate[] = plan.aspects.map((aspect) => {
    const step = { calls: 0, images: 0, videoFrames: 0, videoSeconds: 0, inputTokens: 0 };
    for (const pair of plan.pairs) {
      const shown = pairCost(plan, pair, pricing);
      const rendered = template.render({
        prompt: pair.prompt,
        aspect: aspect.label,
        guideline: aspect.guideline,
        labels: verdictLabelLines(aspect.levels),
      });
      const tokens = Math.ceil(`${rendered}\n\n${shown.list}`.length / rule.charsPerToken) + shown.tokens;
      // Both orders show the same media and text of the same length: two calls of one cost.
      step.calls += PAIR_ORDERS.length;
      step.images += PAIR_ORDERS.length * shown.images;
      step.videoFrames += PAIR_ORDERS.length * shown.videoFrames;
      step.videoSeconds += PAIR_ORDERS.length * shown.videoSeconds;
      step.inputTokens += PAIR_ORDERS.length * tokens;
    }
    return stepEstimate(plan.endpoint, aspect.id, step, scale);
  });
  const sum = (pick: (s: StepEstimate) => number) => steps.reduce((total, s) => total + pick(s), 0);
  const priced = plan.endpoint.pricePer1kInput !== null || plan.endpoint.pricePer1kOutput !== null;
  return {
    calls: sum((s) => s.calls),
    images: sum((s) => s.images),
    videoFrames: sum((s) => s.videoFrames),
    videoSeconds: sum((s) => s.videoSeconds),
    inputTokens: sum((s) => s.inputTokens),
    outputTokens: sum((s) => s.outputTokens),
    outputTokensRange: [sum((s) => s.outputTokensRange[0]), sum((s) => s.outputTokensRange[1])],
    costUsd: priced ? sum((s) => s.costUsd ?? 0) : null,
    costUsdRange: priced ? [sum((s) => s.costUsdRange?.[0] ?? 0), sum((s) => s.costUsdRange?.[1] ?? 0)] : null,
    inputMode: plan.inputMode ?? "images",
    rule: { source: rule.source, charsPerToken: rule.charsPerToken },
    defaultOutputTokens: DEFAULT_OUTPUT_TOKENS,
    steps,
    ...(scale !== 1 ? { sampledVideos: plan.pairs.length } : {}),
  };
}

/** One call's media of a pair, counted and priced, with the prompt line that goes with it. */
function pairCost(
  plan: { endpoint: { capabilities: EndpointCapabilities | null }; inputMode?: InputMode },
  pair: EstimatedPair,
  pricing: Parameters<typeof costOfPlan>[1],
): ReturnType<typeof costOfPlan> & { list: string } {
  const showing = pairShowing(
    {
      inputMode: plan.inputMode ?? "images",
      first: { clip: pair.clipA ?? null },
      second: { clip: pair.clipB ?? null },
    },
    plan.endpoint,
  );
  if (showing.as === "clips") {
    const sampling = pairClipSampling(pair.a.length, pair.b.length);
    const clipPlan = (clip: ClipRef, sizes: FrameSize[]): MediaPlan => ({
      mode: "video-file",
      videoFrames: [],
      clip: { ref: clip, sampling, chosenFrames: sizes.map(standIn) },
      imageFrames: [],
      ownImages: 0,
      grid: false,
    });
    const [a, b] = [
      costOfPlan(clipPlan(showing.first, pair.a), pricing),
      costOfPlan(clipPlan(showing.second, pair.b), pricing),
    ];
    return {
      images: 0,
      videoFrames: a.videoFrames + b.videoFrames,
      videoSeconds: a.videoSeconds + b.videoSeconds,
      tokens: a.tokens + b.tokens,
      list: clipListText(sampling.numFrames),
    };
  }
  const media = planRequestMedia({
    runMode: "images",
    scope: "video",
    input: { frames: [...pair.a, ...pair.b].map(standIn) },
    exampleFrames: [],
    clip: null,
    batch: false,
    capabilities: plan.endpoint.capabilities,
  });
  return {
    ...costOfPlan(media, pricing),
    list: frameListText(
      pair.a.map((_, i) => i),
      pair.b.map((_, i) => i),
    ),
  };
}

function stepEstimate(
  endpoint: EstimateEndpoint,
  aspectId: string,
  step: { calls: number; images: number; videoFrames: number; videoSeconds: number; inputTokens: number },
  scale: number,
): StepEstimate {
  const calls = Math.round(step.calls * scale);
  const inputTokens = Math.round(step.inputTokens * scale);
  const output = (per: number) => Math.round(calls * per);
  const priced = endpoint.pricePer1kInput !== null || endpoint.pricePer1kOutput !== null;
  return {
    stepId: aspectId,
    calls,
    images: Math.round(step.images * scale),
    videoFrames: Math.round(step.videoFrames * scale),
    videoSeconds: step.videoSeconds * scale,
    inputTokens,
    outputTokens: output(ANSWER.typical),
    outputTokensRange: [output(ANSWER.low), output(ANSWER.high)],
    costUsd: priced ? callCostUsd(endpoint, inputTokens, output(ANSWER.typical)) : null,
    costUsdRange: priced
      ? [
          callCostUsd(endpoint, inputTokens, output(ANSWER.low)),
          callCostUsd(endpoint, inputTokens, output(ANSWER.high)),
        ]
      : null,
    outputFrom: "default",
  };
}
