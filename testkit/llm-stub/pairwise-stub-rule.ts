import { createHash } from "node:crypto";
import type { StubRequestContext, StubRule } from "./stub-rule";

/**
 * TEST TOOL. The stub's pairwise judge (prompts/pairwise/compare.md): it reads which images are Video A's and which
 * Video B's from the request's frame list ("Video A: images 1–4 …"), and prefers the video whose images hash higher,
 * so the same video wins in both orders (a judge without position bias); about one pair in five is a tie (both good
 * or both bad), decided by the two videos' hashes alone. Knobs, by the endpoint's model name:
 * - `…first-bias…`: always the video shown first ([[A>B]]): every decided pair flips between the orders;
 * - `…first-bias-<p>…` (p in 0–100): the first video with probability p% (by a hash of the request), else as above;
 * - `…no-label…`: an answer with no verdict label.
 */
export const PAIRWISE_PROMPT_MARKER = "You are an impartial expert judge of AI-generated videos.";
const SPLIT = /Video A: images (\d+)[–-](\d+)[\s\S]*?Video B: images (\d+)[–-](\d+)/;

const hashOf = (parts: readonly string[]) => createHash("sha256").update(parts.join("|")).digest();

/** The shown videos' verdict with no position bias: by the hashes of their images, whatever order they came in. */
function unbiasedLabel(context: StubRequestContext): string {
  const split = SPLIT.exec(context.text);
  const urls = context.imageUrls;
  const [a1, a2, b1, b2] = split
    ? split.slice(1, 5).map(Number)
    : [1, urls.length / 2, urls.length / 2 + 1, urls.length];
  const hashA = hashOf(urls.slice(a1! - 1, a2)).toString("hex");
  const hashB = hashOf(urls.slice(b1! - 1, b2)).toString("hex");
  const both = hashOf([hashA, hashB].sort()).readUInt32BE(0) % 10;
  if (both === 0) return "[[A=B=good]]";
  if (both === 1) return "[[A=B=bad]]";
  return hashA > hashB ? "[[A>B]]" : "[[B>A]]";
}

function firstBias(model: string): number {
  const match = /first-bias(?:-(\d{1,3}))?/.exec(model);
  if (!match) return 0;
  return match[1] === undefined ? 100 : Math.min(100, Number(match[1]));
}

export const PAIRWISE_STUB_RULE: StubRule = {
  name: "pairwise",
  match: new RegExp(PAIRWISE_PROMPT_MARKER.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  respond: (context) => {
    if (context.model.includes("no-label")) return "Both videos show the prompt; I cannot tell them apart.";
    const bias = firstBias(context.model);
    const biased = bias > 0 && context.pick(100, "first-bias") < bias;
    const label = biased ? "[[A>B]]" : unbiasedLabel(context);
    return `Video A and Video B both follow the prompt; comparing them on the aspect asked.\n${label}`;
  },
};
