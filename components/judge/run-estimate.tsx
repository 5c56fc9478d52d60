// A run's cost estimate as the run form and the run page show it (lib/judge/runs/cost-estimate.ts): calls, what they
// show, tokens and price, and where the token rule and answer lengths come from.
import { formatCost } from "@/lib/format/numbers";
import type { RunEstimateAnswer } from "@/lib/judge/runs/run-estimate.types";

const RULE_LABELS: Readonly<Record<string, string>> = {
  endpoint: "the endpoint's own token rule",
  openai: "OpenAI's image token rule",
  gemini: "Gemini's token rule",
  "qwen-vl": "Qwen2.5-VL's 28-pixel patches",
  stub: "the stub LLM's rule (255 a picture)",
  default: "255 tokens a picture (no documented provider matched)",
};

/** What the frames come to, in the run's mode: pictures, video frames or video seconds. */
export function shownLabel(e: Pick<RunEstimateAnswer, "images" | "videoFrames" | "videoSeconds">): string {
  const parts = [
    e.images ? `${e.images.toLocaleString()} images` : null,
    e.videoFrames ? `${e.videoFrames.toLocaleString()} video frames` : null,
    e.videoSeconds ? `${e.videoSeconds.toLocaleString()} video seconds` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no frames";
}

/** Where the answer lengths come from, step by step: the endpoint's history, the answer schema, or the default. */
function answerLengthsLabel(estimate: RunEstimateAnswer): string {
  const from = (source: string) => estimate.steps.filter((s) => s.outputFrom === source).map((s) => s.stepId);
  const history = from("history");
  const schema = from("schema");
  const fallback = from("default");
  const parts = [
    history.length ? `this endpoint's earlier answers for ${history.join(", ")}` : null,
    schema.length ? `the answer schema for ${schema.join(", ")} (no earlier answers of this endpoint)` : null,
    fallback.length
      ? `${estimate.defaultOutputTokens} tokens a call for ${fallback.join(", ")} (no history, no schema)`
      : null,
  ].filter(Boolean);
  return parts.length ? `answer lengths from ${parts.join("; ")}` : "no answers";
}

const tokenRange = (range: [number, number] | undefined) =>
  range ? ` (${range[0].toLocaleString()}–${range[1].toLocaleString()})` : "";

export function RunEstimateSummary({ estimate }: { estimate: RunEstimateAnswer }) {
  const rule = Object.hasOwn(RULE_LABELS, estimate.rule.source)
    ? RULE_LABELS[estimate.rule.source]
    : estimate.rule.source;
  return (
    <div className="flex flex-col gap-1 text-xs" data-testid="run-estimate">
      <p>
        <span className="font-medium">Estimate:</span> {estimate.calls.toLocaleString()} calls, {shownLabel(estimate)},{" "}
        {estimate.inputTokens.toLocaleString()} input and {estimate.outputTokens.toLocaleString()}
        {tokenRange(estimate.outputTokensRange)} output tokens,{" "}
        <span className="font-medium" data-testid="run-estimate-cost">
          {estimate.costUsd === null ? "no price (the endpoint has none)" : formatCost(estimate.costUsd)}
        </span>
        {estimate.costUsd !== null && estimate.costUsdRange ? (
          <span data-testid="run-estimate-cost-range">
            {" "}
            (from {formatCost(estimate.costUsdRange[0])} to {formatCost(estimate.costUsdRange[1])})
          </span>
        ) : null}
      </p>
      <p className="text-slate-500">
        Input by {rule} and {estimate.rule.charsPerToken} characters a token ({estimate.inputMode});{" "}
        {answerLengthsLabel(estimate)}
        {estimate.sampledVideos ? `; from ${estimate.sampledVideos.toLocaleString()} of the run's videos, scaled` : ""}.
        Repairs, retries and cached answers are not foreseen.
      </p>
    </div>
  );
}
