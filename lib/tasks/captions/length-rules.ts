/**
 * The length rules of caption judging, computed by FrameJury from its own counts (count-words.ts), never
 * asked of the judge:
 *
 * - `brief_detail_10pct`, seed 003's mandatory rule: for brief and detail captions, when the output's word
 *   count differs from the reference's by more than ±10%, the score cannot be higher than 1. Exactly 10%
 *   passes ("within ±10%"). A reference without words gives no length to compare with, so the rule does not
 *   apply to it (and says so).
 * - `instruction_restriction`: the length the instruction itself asks for ("needs to be 20 to 30 words",
 *   "cannot exceed three sentences"), read from AnyCapEval's restriction rule text, or from the instruction
 *   when there is no rule text. An output that violates it is capped at 1 too, the same cap as the seed's rule:
 *   ignoring an explicit length instruction is the same kind of failure as ignoring the reference's
 *   length, and one cap keeps "score after the rules" a single, explainable number.
 *
 * `judgeBrokeRule` marks answers where the judge's raw score was above the cap, i.e. the judge did not apply
 * a rule its prompt states (or that the instruction states). The raw score is kept; which one counts is a
 * run setting.
 */
import { counters, type WordCounting } from "./count-words";
import { LENGTH_RULE_TYPES } from "./caption-types";
import { checkRestriction, describeRestriction, type LengthRestriction, parseRestrictions } from "./parse-restriction";

/** The highest score a caption that breaks a length rule can keep. */
export const LENGTH_RULE_SCORE_CAP = 1;

export type LengthRuleId = "brief_detail_10pct" | "instruction_restriction";

export interface LengthRuleResult {
  id: LengthRuleId;
  /** False when the rule has nothing to check (another caption type, an empty reference, no restriction). */
  applies: boolean;
  /** Null when the rule does not apply. */
  passed: boolean | null;
  /** For people: what was checked, with the counts. */
  detail: string;
}

export interface LengthRulesInput {
  /** The stored caption type ("brief", "theme", "action", …). */
  captionType: string;
  output: string;
  reference: string;
  instruction: string;
  /** AnyCapEval's restriction rule text (`restriction[1]`), or null; the instruction is read when it holds none. */
  restriction: string | null;
  /** The judge's raw 0–4 score, or null when there is none (not judged yet, or parse_failed). */
  judgeScore: number | null;
  /** How words and sentences are counted (a run setting); FrameJury's own by default. */
  counting?: WordCounting;
}

export interface LengthRulesResult {
  /** How the counts below were made. Outputs stored before the setting existed lack it: FrameJury's. */
  counting: WordCounting;
  outputWords: number;
  referenceWords: number;
  outputSentences: number;
  /** (output − reference) / reference words; null when the reference has no words. */
  deviation: number | null;
  /** The restrictions checked by `instruction_restriction` (at most one per unit). */
  restrictions: LengthRestriction[];
  rules: LengthRuleResult[];
  /** LENGTH_RULE_SCORE_CAP when some applicable rule failed, else null. */
  cap: number | null;
  scoreAfterRules: number | null;
  judgeBrokeRule: boolean;
}

/** Whether `outputWords` is within ±10% of `referenceWords`, boundary included (compared in integers, with no division to round). */
export function withinReferenceLength(outputWords: number, referenceWords: number): boolean {
  return Math.abs(outputWords - referenceWords) * 10 <= referenceWords;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
const percent = (fraction: number) => `${fraction >= 0 ? "+" : "−"}${Math.abs(fraction * 100).toFixed(1)}%`;

function referenceLengthRule(captionType: string, outputWords: number, referenceWords: number): LengthRuleResult {
  const id = "brief_detail_10pct";
  if (!(LENGTH_RULE_TYPES as readonly string[]).includes(captionType)) {
    return {
      id,
      applies: false,
      passed: null,
      detail: `Only brief and detail captions must be within ±10% of the reference's word count; this is a ${captionType} caption.`,
    };
  }
  if (referenceWords === 0) {
    return {
      id,
      applies: false,
      passed: null,
      detail: "The reference has no words, so the ±10% word-count rule cannot apply.",
    };
  }
  const passed = withinReferenceLength(outputWords, referenceWords);
  const deviation = (outputWords - referenceWords) / referenceWords;
  return {
    id,
    applies: true,
    passed,
    detail: `The output has ${plural(outputWords, "word")}, the reference ${plural(referenceWords, "word")} (${percent(deviation)}; the limit is ±10%): ${passed ? "within the limit" : `outside the limit, so the score cannot be higher than ${LENGTH_RULE_SCORE_CAP}`}.`,
  };
}

function restrictionRule(
  restrictions: LengthRestriction[],
  outputWords: number,
  outputSentences: number,
): LengthRuleResult {
  const id = "instruction_restriction";
  if (restrictions.length === 0)
    return { id, applies: false, passed: null, detail: "The instruction states no length restriction." };
  const parts = restrictions.map((restriction) => {
    const count = restriction.unit === "words" ? outputWords : outputSentences;
    const check = checkRestriction(restriction, count);
    const counted = plural(count, restriction.unit === "words" ? "word" : "sentence");
    return {
      passed: check.passed,
      text: `"${restriction.source}" (${describeRestriction(restriction)}): the output has ${counted}${check.passed ? ", which satisfies it" : ` and ${check.problem}`}`,
    };
  });
  const passed = parts.every((part) => part.passed);
  return {
    id,
    applies: true,
    passed,
    detail: `The instruction asks for ${parts.map((part) => part.text).join("; ")}.${passed ? "" : ` The score cannot be higher than ${LENGTH_RULE_SCORE_CAP}.`}`,
  };
}

export function applyLengthRules(input: LengthRulesInput): LengthRulesResult {
  const counting = input.counting ?? "framejury";
  const count = counters(counting);
  const outputWords = count.words(input.output);
  const referenceWords = count.words(input.reference);
  const outputSentences = count.sentences(input.output);
  const fromRule = parseRestrictions(input.restriction);
  const restrictions = fromRule.length ? fromRule : parseRestrictions(input.instruction);
  const rules = [
    referenceLengthRule(input.captionType, outputWords, referenceWords),
    restrictionRule(restrictions, outputWords, outputSentences),
  ];
  const cap = rules.some((rule) => rule.applies && rule.passed === false) ? LENGTH_RULE_SCORE_CAP : null;
  const judgeScore = input.judgeScore;
  return {
    counting,
    outputWords,
    referenceWords,
    outputSentences,
    deviation: referenceWords === 0 ? null : (outputWords - referenceWords) / referenceWords,
    restrictions,
    rules,
    cap,
    scoreAfterRules: judgeScore === null ? null : cap === null ? judgeScore : Math.min(judgeScore, cap),
    judgeBrokeRule: judgeScore !== null && cap !== null && judgeScore > cap,
  };
}
