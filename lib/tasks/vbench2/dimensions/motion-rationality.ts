/**
 * VBench-2.0 Motion_Rationality. Per video 1 when every auxiliary_info question is answered yes, else 0
 * (motion_rationality.py); the score is the mean over videos.
 */
import type { Vbench2Dimension } from "../dimension";
import { allYes, listQuestions, questionSteps } from "./question-list";

export const motionRationality: Vbench2Dimension = {
  dimension: "Motion_Rationality",
  steps: questionSteps("Motion_Rationality", "vbench2/motion-rationality", 6),
  questions: listQuestions("Motion_Rationality"),
  videoValue: (answers) => allYes(answers),
};
