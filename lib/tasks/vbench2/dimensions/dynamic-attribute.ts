/**
 * VBench-2.0 Dynamic_Attribute. Per video 1 when every auxiliary_info question is answered yes, else 0
 * (dynamic_attribute.py); the score is the mean over videos.
 */
import type { Vbench2Dimension } from "../dimension";
import { allYes, listQuestions, questionSteps } from "./question-list";

export const dynamicAttribute: Vbench2Dimension = {
  dimension: "Dynamic_Attribute",
  steps: questionSteps("Dynamic_Attribute", "vbench2/dynamic-attribute", 6),
  questions: listQuestions("Dynamic_Attribute"),
  videoValue: (answers) => allYes(answers),
};
