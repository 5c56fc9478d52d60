/** VBench-2.0 Thermotics. As Material, with its own instruction (thermotics.py). */
import type { Vbench2Dimension } from "../dimension";
import { gatedByFirst, listQuestions, questionSteps } from "./question-list";

export const thermotics: Vbench2Dimension = {
  dimension: "Thermotics",
  steps: questionSteps("Thermotics", "vbench2/thermotics", 6),
  questions: listQuestions("Thermotics"),
  videoValue: (answers) => gatedByFirst(answers),
};
