/**
 * The dimensions whose auxiliary_info is a list of yes/no questions asked one call each with the 64 frames
 * (Dynamic_Attribute, Motion_Rationality, Material, Mechanics, Thermotics): every question is asked, as VBench
 * asks them all; the rule that turns the answers into a value is the dimension's own.
 */
import type { StepDefinition, VideoContext } from "../../../task-modules/pipeline-types";
import {
  excluded,
  known,
  missingInfo,
  questionCategory,
  questionList,
  stepId,
  valueOf,
  type Answers,
  type QuestionRef,
  type VideoValue,
} from "../dimension";
import { timeInstructionValues as timeValues } from "../frames";
import { vlmStep } from "../steps";
import type { JudgedDimension } from "../vbench2-dimensions";

export function questionSteps(dimension: JudgedDimension, templateId: string, most: number): StepDefinition[] {
  return Array.from({ length: most }, (_, k) =>
    vlmStep({
      dimension,
      id: stepId(dimension, `q${k + 1}`),
      label: `${dimension}: question ${k + 1}`,
      templateId,
      category: questionCategory(dimension, k),
      // Without the questions only the first step is planned, to carry the reason it is skipped.
      planned: (context) => (questionList(context, dimension)?.length ?? 1) > k,
      missing: (context) => (questionList(context, dimension) ? null : missingInfo(dimension)),
      values: (context, sampled) => ({ ...timeValues(sampled), question: questionList(context, dimension)![k]! }),
    }),
  );
}

export function listQuestions(dimension: JudgedDimension) {
  return (context: VideoContext): QuestionRef[] =>
    (questionList(context, dimension) ?? []).map((text, k) => ({ text, stepId: stepId(dimension, `q${k + 1}`) }));
}

/** Dynamic_Attribute, Motion_Rationality: 1 when every answer is yes, else 0. */
export function allYes(answers: Answers): VideoValue {
  if (answers.length === 0 || !known(answers)) return valueOf(null);
  return valueOf(answers.every(Boolean) ? 1 : 0);
}

/**
 * Material, Mechanics, Thermotics: one question decides alone; with more, question 1 is a validity gate (no: the
 * video is excluded, VBench's -1) and question 2 decides; a third is asked and not counted, as in VBench.
 */
export function gatedByFirst(answers: Answers): VideoValue {
  if (answers.length === 1) return known(answers) ? valueOf(answers[0] ? 1 : 0) : valueOf(null);
  if (answers[0] === false)
    return excluded("question 1 answered no: the scene the dimension tests is not there (VBench's -1)");
  if (!known(answers, 2)) return valueOf(null);
  return valueOf(answers[1] ? 1 : 0);
}
