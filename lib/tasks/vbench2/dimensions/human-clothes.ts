/**
 * VBench-2.0 Human_Clothes (human_clothes.py): three fixed questions. The first is a gate: no, and VBench stops
 * asking and gives -1 (left out of the mean); otherwise 1 when both others are yes, else 0.
 */
import { excluded, known, questionCategory, stepId, valueOf, type Vbench2Dimension } from "../dimension";
import { timeInstructionValues } from "../frames";
import { afterNo, vlmStep } from "../steps";

const DIMENSION = "Human_Clothes";
/** human_clothes.py's base_question, verbatim. */
export const HUMAN_CLOTHES_QUESTIONS = [
  "Is there only one person in the video throughout?",
  "Is the person in the video the same throughout?",
  "Does the clothes of the person in the video (color, texture) remain consistent throughout?",
] as const;

const gate = stepId(DIMENSION, "q1");

export const humanClothes: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: HUMAN_CLOTHES_QUESTIONS.map((question, k) =>
    vlmStep({
      dimension: DIMENSION,
      id: stepId(DIMENSION, `q${k + 1}`),
      label: `${DIMENSION}: question ${k + 1}`,
      templateId: "vbench2/human-clothes",
      category: questionCategory(DIMENSION, k),
      values: (_context, sampled) => ({ ...timeInstructionValues(sampled), question }),
      ...(k > 0
        ? { after: [gate], notAsked: afterNo(gate, "not asked: question 1 (only one person) was answered no") }
        : {}),
    }),
  ),
  questions: () => HUMAN_CLOTHES_QUESTIONS.map((text, k) => ({ text, stepId: stepId(DIMENSION, `q${k + 1}`) })),
  videoValue: (answers) => {
    if (answers[0] === false) return excluded("question 1 answered no: not one person throughout (VBench's -1)");
    if (!known(answers, 3)) return valueOf(null);
    return valueOf(answers[1] && answers[2] ? 1 : 0);
  },
};
