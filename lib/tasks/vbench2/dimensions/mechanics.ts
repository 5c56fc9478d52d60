/** VBench-2.0 Mechanics. As Material (mechanics.py is material.py's code). */
import type { Vbench2Dimension } from "../dimension";
import { gatedByFirst, listQuestions, questionSteps } from "./question-list";

export const mechanics: Vbench2Dimension = {
  dimension: "Mechanics",
  steps: questionSteps("Mechanics", "vbench2/mechanics", 6),
  questions: listQuestions("Mechanics"),
  videoValue: (answers) => gatedByFirst(answers),
};
