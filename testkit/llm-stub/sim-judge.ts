import { createHash } from "node:crypto";
import type { StubRequestContext } from "./stub-rule";

/**
 * TEST TOOL. A simulated judge (issue 26): an endpoint whose model name contains
 * `sim-judge?noise=<sd>&bias=<b>&seed=<s>` (e.g. `stub-sim-judge?noise=1.5&bias=0&seed=3`) answers a rubric's
 * numeric criteria as round(truth + bias + N(0, noise)) on the criterion's step, clamped to its scale. The
 * truth is the number after `truth=` in the prompt (put it in a video's prompt: the test knows it), else a
 * value derived from a hash of the prompt and images. Each time the same text is asked again the judge draws
 * anew (as a model sampling at a temperature above 0 does); judges with different seeds draw independently.
 * Other criteria are answered as the plain rubric stub answers them.
 */
export interface SimJudge {
  noise: number;
  bias: number;
  seed: string;
}

const MODEL = /sim-judge(?:\?([^\s]*))?$/;

export function simJudgeOf(model: string): SimJudge | null {
  const match = MODEL.exec(model);
  if (!match) return null;
  const params = new URLSearchParams(match[1] ?? "");
  const number = (name: string, fallback: number) => {
    const value = Number(params.get(name) ?? fallback);
    return Number.isFinite(value) ? value : fallback;
  };
  return { noise: Math.max(0, number("noise", 1)), bias: number("bias", 0), seed: params.get("seed") ?? "0" };
}

const TRUTH = /\btruth=(-?\d+(?:\.\d+)?)/;

/** The simulated truth of a numeric criterion for this request: the prompt's `truth=`, else one from its hash. */
export function simulatedTruth(
  context: StubRequestContext,
  criterion: { id: string; min: number; max: number; step: number },
): number {
  const stated = TRUTH.exec(context.text);
  if (stated) return Number(stated[1]);
  const steps = Math.floor((criterion.max - criterion.min) / criterion.step + 1e-9);
  return criterion.min + context.pick(steps + 1, `truth|${criterion.id}`) * criterion.step;
}

/**
 * One simulated answer: truth + bias + N(0, noise) (Box–Muller from two uniforms hashed from the text, the judge's seed
 * and how often the text was asked), on the step, within the scale.
 */
export function simulatedScore(
  judge: SimJudge,
  context: StubRequestContext,
  criterion: { id: string; min: number; max: number; step: number },
): number {
  const truth = simulatedTruth(context, criterion);
  // From the text alone (not the frames' bytes): a seeded simulation draws the same numbers on every test run.
  const uniform = (which: string) =>
    (createHash("sha256")
      .update(`${context.text}\n${judge.seed}|${criterion.id}|${context.seen}|${which}`)
      .digest()
      .readUInt32BE(0) +
      0.5) /
    2 ** 32;
  const normal = Math.sqrt(-2 * Math.log(uniform("u1"))) * Math.cos(2 * Math.PI * uniform("u2"));
  const raw = truth + judge.bias + judge.noise * normal;
  const onStep = criterion.min + Math.round((raw - criterion.min) / criterion.step) * criterion.step;
  return Number(Math.min(criterion.max, Math.max(criterion.min, onStep)).toFixed(6));
}
