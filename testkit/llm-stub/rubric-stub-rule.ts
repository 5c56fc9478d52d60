import type { StubRule } from "./stub-rule";
import { simJudgeOf, simulatedScore } from "./sim-judge";

/** The marker the rubric prompt's answer instruction carries (lib/rubrics/rubric-prompt.ts RUBRIC_ANSWER_MARKER). */
const MARKER = /FrameJury rubric answer format: (\{.*\})\s*$/m;

interface AnswerShape {
  criteria: {
    id: string;
    type: "numeric" | "categorical" | "boolean";
    min?: number;
    max?: number;
    step?: number | null;
    labels?: string[];
    localize?: true;
  }[];
  reasons: boolean;
  /** How many frames the call numbers, when a criterion localises. */
  frameCount?: number;
}

/** Where a localising criterion fails: none for about a third of the calls, else a run of one to three frames. */
function failingFrames(context: Parameters<StubRule["respond"]>[0], id: string, frameCount: number): number[] {
  if (frameCount < 1 || context.pick(3, `${id}:where`) === 0) return [];
  const first = context.pick(frameCount, `${id}:first`) + 1;
  const last = Math.min(frameCount, first + context.pick(3, `${id}:length`));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/**
 * TEST TOOL. Answers any rubric task's prompt from the answer format its instruction states: each criterion a
 * value on its scale, picked from a hash of the prompt and the images (stable across runs, different between
 * videos and scopes), a reason per criterion when the rubric asks for them, and for criteria that localise a run
 * of the call's numbered frames where each fails (or none). Tried before every task's
 * rules: a rubric's own words may look like any task's prompt.
 */
export const RUBRIC_STUB_RULE: StubRule = {
  name: "rubric",
  match: MARKER,
  respond: (context) => {
    const shape = JSON.parse(MARKER.exec(context.text)![1]!) as AnswerShape;
    const answer: Record<string, unknown> = {};
    // A simulated judge (./sim-judge.ts) answers numeric criteria from a known truth with its noise and bias.
    const simJudge = simJudgeOf(context.model);
    for (const c of shape.criteria) {
      if (c.type === "boolean") answer[c.id] = context.pick(2, c.id) === 1;
      else if (c.type === "categorical") answer[c.id] = c.labels![context.pick(c.labels!.length, c.id)];
      else if (simJudge)
        answer[c.id] = simulatedScore(simJudge, context, { id: c.id, min: c.min!, max: c.max!, step: c.step ?? 1 });
      else {
        const step = c.step ?? 1;
        const steps = Math.floor((c.max! - c.min!) / step + 1e-9);
        answer[c.id] = Number((c.min! + context.pick(steps + 1, c.id) * step).toFixed(6));
      }
    }
    if (shape.reasons)
      answer.reasons = Object.fromEntries(
        shape.criteria.map((c) => [c.id, `The stub judged ${c.id} from ${context.imageCount} image(s).`]),
      );
    const localized = shape.criteria.filter((c) => c.localize);
    if (localized.length > 0)
      answer.frames = Object.fromEntries(
        localized.map((c) => [c.id, failingFrames(context, c.id, shape.frameCount ?? context.imageCount)]),
      );
    return JSON.stringify(answer);
  },
};
