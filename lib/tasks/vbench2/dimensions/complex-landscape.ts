/**
 * VBench-2.0 Complex_Landscape (complex_landscape.py): the VLM describes the landscape in detail, the text LLM
 * summarises that into five numbered plots, then compares the expected plots with them in order (see
 * plot-judges.ts); the score is the mean over videos.
 *
 * Faithful to its code, a summary with no numbered list is compared whole with plot 1 only: plots 2 on are compared
 * with the previous judge's answer, which its loop assigns to the summary's variable. The `corrected` variant
 * compares every plot with the summary.
 */
import type { StepOutputs, VideoContext } from "../../../task-modules/pipeline-types";
import { answerText, splitByNumberedList } from "../answers";
import { missingInfo, questionList, stepId, type Vbench2Dimension } from "../dimension";
import { textStep, vlmStep } from "../steps";
import { consecutivePlots, plotJudgeSteps, plotQuestions, type PlotAnswer } from "./plot-judges";

const DIMENSION = "Complex_Landscape";
const describe = stepId(DIMENSION, "describe");
const summarize = stepId(DIMENSION, "summarize");
/** complex_landscape.py's template, five plots whatever the prompt has. */
const LANDSCAPE_TEMPLATE = "1. ; 2. ; 3. ; 4. ; 5. .";

function plotAnswer(_context: VideoContext, outputs: StepOutputs): PlotAnswer {
  // The summary is used as the text judge gave it (VBench does not strip it).
  const summary = answerText(outputs.get(summarize, 0));
  if (summary === null) return null;
  return summary.includes("1. ") ? { items: splitByNumberedList(summary) } : { whole: summary };
}

export const complexLandscape: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: [
    vlmStep({
      dimension: DIMENSION,
      id: describe,
      label: `${DIMENSION}: describe the landscape`,
      templateId: "vbench2/complex-landscape-describe",
      missing: (context) => (questionList(context, DIMENSION) ? null : missingInfo(DIMENSION)),
    }),
    textStep({
      dimension: DIMENSION,
      id: summarize,
      label: `${DIMENSION}: summarise into plots (text judge)`,
      templateId: "vbench2/complex-landscape-summarize",
      after: [describe],
      values: (_context, outputs) => ({
        caption: (answerText(outputs.get(describe, 0)) ?? "").trim(),
        template: LANDSCAPE_TEMPLATE,
      }),
    }),
    ...plotJudgeSteps(DIMENSION, "vbench2/complex-landscape-judge", [describe, summarize], plotAnswer, {
      wholeAnswerCarriesJudgeAnswer: true,
    }),
  ],
  questions: plotQuestions(DIMENSION),
  videoValue: (answers, context) => consecutivePlots(answers, context, DIMENSION),
};
