/**
 * What each of VBench-2.0's judged dimensions is in FrameJury (one file per dimension in ./dimensions/, as VBench
 * has one file per dimension): its steps, the questions people check, and its rules for a video's value and the
 * dimension's score. The rules take answers, not outputs, so a person's answers give a value by the same rule.
 */
import type { StepDefinition, StepOutputs, VideoContext } from "../../task-modules/pipeline-types";
import type { ScoreTally } from "../../leaderboard/leaderboard";
import { saidYes } from "./answers";
import type { JudgedDimension } from "./vbench2-dimensions";
import { dimensionSlug } from "./vbench2-dimensions";

/** A video's value in a dimension: a number, or excluded (VBench's -1) with why; null value and reason: unknown. */
export interface VideoValue {
  value: number | null;
  excludedReason: string | null;
}

/** A yes/no question people check: its words, and the step whose answer is the judge's. */
export interface QuestionRef {
  text: string;
  stepId: string;
}

export type Answers = readonly (boolean | null)[];

export interface Vbench2Dimension {
  dimension: JudgedDimension;
  steps: StepDefinition[];
  /** The questions of this video in order; question k is scored as `<slug>:q<k+1>`. */
  questions(context: VideoContext): QuestionRef[];
  /** The video's value from an answer per question (null: not answered). */
  videoValue(answers: Answers, context: VideoContext, judgeExclusion: string | null): VideoValue;
  /** An exclusion that no question decides (Motion_Order_Understanding's unparsable order), from the judge's outputs. */
  judgeExclusion?(context: VideoContext, outputs: StepOutputs): string | null;
  /**
   * The dimension's score from the tally of its videos' values (tallyOf): the mean of those not excluded unless said
   * otherwise. Every score of the dimension goes through it (results-score.ts): a run's, a generator's on the
   * leaderboard (and each of its bootstrap draws), people's and VBench's own values'.
   */
  score?(tally: ScoreTally): number | null;
}

export const questionCategory = (dimension: string, index: number) => `${dimensionSlug(dimension)}:q${index + 1}`;
export const stepId = (dimension: string, name: string) => `${dimensionSlug(dimension)}_${name}`;

export function auxiliaryInfo(context: Pick<VideoContext, "auxiliaryInfo">, dimension: string): unknown {
  return context.auxiliaryInfo?.[dimension];
}

/** The auxiliary_info of a dimension whose evaluator reads a list of questions, or null. */
export function questionList(context: Pick<VideoContext, "auxiliaryInfo">, dimension: string): string[] | null {
  const info = auxiliaryInfo(context, dimension);
  return Array.isArray(info) && info.length > 0 && info.every((q) => typeof q === "string") ? (info as string[]) : null;
}

export const missingInfo = (dimension: string) =>
  `no auxiliary_info for ${dimension}: import VBench2_full_info.json (or meta_info/${dimension}.json) as a prompt list`;

/** The judge's answer to each question (null where the step made none). */
export function judgeAnswers(
  definition: Vbench2Dimension,
  context: VideoContext,
  outputs: StepOutputs,
): (boolean | null)[] {
  return definition.questions(context).map((question) => saidYes(outputs.get(question.stepId, 0)));
}

export const known = (answers: Answers, count = answers.length) =>
  answers.length >= count && answers.slice(0, count).every((a) => a !== null);
export const valueOf = (value: number | null): VideoValue => ({ value, excludedReason: null });
export const excluded = (reason: string): VideoValue => ({ value: null, excludedReason: reason });

/** What a dimension's score is computed from: the values counted, how many are excluded (-1) and how many videos in all. */
export function tallyOf(values: readonly VideoValue[]): ScoreTally {
  const tally: ScoreTally = { sum: 0, counted: 0, excluded: 0, videos: values.length };
  for (const v of values) {
    if (v.excludedReason !== null) tally.excluded++;
    else if (v.value !== null) {
      tally.sum += v.value;
      tally.counted++;
    }
  }
  return tally;
}
