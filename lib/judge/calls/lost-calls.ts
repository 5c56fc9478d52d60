/**
 * A call is written as "sent" before its request goes out (as it nears its slot: headStartCalls in
 * endpoint-limiter.ts, a quarter of the endpoint's concurrency and at least 8), with tokens and cost estimated from the
 * request; its answer replaces the estimate
 * with the endpoint's `usage`. A worker that dies while a recorded call still waits for its slot over-counts
 * by that call: the bill errs high, never low. When a worker dies with calls in
 * flight, the provider still answers (and bills) them, but the answers never reach the database: the next
 * worker to take up the video marks those calls "lost" and they stay in the run's calls, tokens and cost
 * with their estimates (lib/judge/engine/video-jobs.ts, planVideosSteps). Providers cannot tell the second
 * request of a step from the first, so the step is paid twice.
 */

/** Characters of prompt text per estimated token (OpenAI's rule of thumb for English). */
export const ESTIMATED_CHARS_PER_TOKEN = 4;
/**
 * Estimated tokens per image: OpenAI's price of one 512×512 tile at high detail (85 base + 170 per tile),
 * which is what a key frame at "low" costs at most and a small frame at "high".
 */
export const ESTIMATED_TOKENS_PER_IMAGE = 255;

/** The prompt tokens a request is estimated at: its text (and a repair's earlier turns) at 4 characters a token, plus 255 per image. */
export function estimatedPromptTokens(request: {
  text: string;
  imageCount: number;
  followUp?: { previousAnswer: string; correction: string } | null;
}): number {
  const chars =
    request.text.length +
    (request.followUp ? request.followUp.previousAnswer.length + request.followUp.correction.length : 0);
  return Math.ceil(chars / ESTIMATED_CHARS_PER_TOKEN) + request.imageCount * ESTIMATED_TOKENS_PER_IMAGE;
}

/** A call's cost at the endpoint's prices (USD per 1,000 tokens; an unset price counts as free). */
export function callCostUsd(
  endpoint: { pricePer1kInput: number | null; pricePer1kOutput: number | null },
  promptTokens: number,
  completionTokens: number,
  factor = 1,
): number {
  return (
    ((promptTokens / 1000) * (endpoint.pricePer1kInput ?? 0) +
      (completionTokens / 1000) * (endpoint.pricePer1kOutput ?? 0)) *
    factor
  );
}
