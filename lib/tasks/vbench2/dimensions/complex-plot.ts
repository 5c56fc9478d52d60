/**
 * VBench-2.0 Complex_Plot (complex_plot.py): the VLM returns the plot on a numbered template of as many plots as
 * the prompt has; when its numbered answer has more plots than expected it is asked to describe the video in detail
 * and the text LLM summarises that into the template's plots. The text LLM then compares plots in order (see
 * plot-judges.ts); the score is the mean over videos.
 *
 * VBench defines a template for 4 and 5 plots only; one prompt of the suite has 6, where its code reuses the
 * template of the video before (or fails on the first): FrameJury sends the 5-plot template there.
 */
import type { StepOutputs, VideoContext } from "../../../task-modules/pipeline-types";
import { answerText, splitByNumberedList } from "../answers";
import { missingInfo, questionList, stepId, type Vbench2Dimension } from "../dimension";
import { timeInstructionValues } from "../frames";
import { textStep, vlmStep } from "../steps";
import { consecutivePlots, plotJudgeSteps, plotQuestions, type PlotAnswer } from "./plot-judges";

const DIMENSION = "Complex_Plot";
const describe = stepId(DIMENSION, "describe");
const redescribe = stepId(DIMENSION, "redescribe");
const summarize = stepId(DIMENSION, "summarize");

export const plotTemplate = (plots: number) => (plots === 4 ? "1. ; 2. ; 3. ; 4. ." : "1. ; 2. ; 3. ; 4. ; 5. .");
const expectedPlots = (context: VideoContext) => questionList(context, DIMENSION)?.length ?? 0;
const firstAnswer = (outputs: StepOutputs) => (answerText(outputs.get(describe, 0)) ?? "").trim();

/** The numbered answer lists more plots than expected: VBench asks again for a description and summarises it. */
function needsSummary(context: VideoContext, outputs: StepOutputs): boolean {
  const answer = firstAnswer(outputs);
  return answer.includes("1. ") && splitByNumberedList(answer).length > expectedPlots(context);
}

function plotAnswer(context: VideoContext, outputs: StepOutputs): PlotAnswer {
  if (outputs.get(describe, 0) === undefined) return null;
  const answer = firstAnswer(outputs);
  if (!answer.includes("1. ")) return { whole: answer };
  if (!needsSummary(context, outputs)) return { items: splitByNumberedList(answer) };
  return { items: splitByNumberedList(answerText(outputs.get(summarize, 0)) ?? "") };
}

const NOT_NEEDED = "not asked: the numbered answer has no more plots than the prompt";

export const complexPlot: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: [
    vlmStep({
      dimension: DIMENSION,
      id: describe,
      label: `${DIMENSION}: the plot (numbered)`,
      templateId: "vbench2/complex-plot-describe",
      missing: (context) => (questionList(context, DIMENSION) ? null : missingInfo(DIMENSION)),
      values: (context, sampled) => ({
        ...timeInstructionValues(sampled),
        template: plotTemplate(expectedPlots(context)),
      }),
    }),
    vlmStep({
      dimension: DIMENSION,
      id: redescribe,
      label: `${DIMENSION}: describe the video (when the plot has too many parts)`,
      templateId: "vbench2/complex-plot-redescribe",
      after: [describe],
      notAsked: (context, outputs) => (needsSummary(context, outputs) ? null : NOT_NEEDED),
    }),
    textStep({
      dimension: DIMENSION,
      id: summarize,
      label: `${DIMENSION}: summarise into plots (text judge)`,
      templateId: "vbench2/complex-plot-summarize",
      after: [describe, redescribe],
      notAsked: (context, outputs) => (needsSummary(context, outputs) ? null : NOT_NEEDED),
      values: (context, outputs) => ({
        caption: (answerText(outputs.get(redescribe, 0)) ?? "").trim(),
        template: plotTemplate(expectedPlots(context)),
      }),
    }),
    ...plotJudgeSteps(DIMENSION, "vbench2/complex-plot-judge", [describe, redescribe, summarize], plotAnswer),
  ],
  questions: plotQuestions(DIMENSION),
  videoValue: (answers, context) => consecutivePlots(answers, context, DIMENSION),
};
