/** VBench-2.0 Material. One question: its answer. Two or more: question 1 gates (no gives -1, left out of the mean), question 2 decides (material.py). */
import type { Vbench2Dimension } from "../dimension";
import { gatedByFirst, listQuestions, questionSteps } from "./question-list";

export const material: Vbench2Dimension = {
  dimension: "Material",
  steps: questionSteps("Material", "vbench2/material", 6),
  questions: listQuestions("Material"),
  videoValue: (answers) => gatedByFirst(answers),
};
