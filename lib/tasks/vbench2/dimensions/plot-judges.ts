/**
 * The text judge's walk through expected plots, shared by Complex_Plot and Complex_Landscape (complex_plot.py,
 * complex_landscape.py): plot k of auxiliary_info is compared with the VLM's answer (the whole answer when it is not
 * a numbered list, else its k-th item), in order, stopping at the first no; the value is the number of plots found
 * before it over the number expected.
 */
import type { StepDefinition, StepOutputs, VideoContext } from "../../../task-modules/pipeline-types";
import { answerText, isNotAsked, saidYes } from "../answers";
import {
  questionCategory,
  questionList,
  stepId,
  valueOf,
  type Answers,
  type QuestionRef,
  type VideoValue,
} from "../dimension";
import { vbench2SettingsOf } from "../settings";
import { textStep } from "../steps";
import type { JudgedDimension } from "../vbench2-dimensions";

export const MOST_PLOTS = 6;

/** What the plots are compared with: the whole answer, or its numbered items. */
export type PlotAnswer = { whole: string } | { items: string[] } | null;

export interface PlotJudgeOptions {
  /**
   * complex_landscape.py compares plots with the whole summary in a loop that assigns each judge's answer to the
   * variable holding the summary (`response = judge(...)`), so from plot 2 on its prompt2 is the previous judge's
   * answer. The faithful variant sends that; the corrected one sends the summary every time.
   */
  wholeAnswerCarriesJudgeAnswer?: boolean;
}

export function plotJudgeSteps(
  dimension: JudgedDimension,
  templateId: string,
  after: string[],
  plotAnswer: (context: VideoContext, outputs: StepOutputs) => PlotAnswer,
  options: PlotJudgeOptions = {},
): StepDefinition[] {
  return Array.from({ length: MOST_PLOTS }, (_, k) => {
    const previous = k > 0 ? [stepId(dimension, `judge${k}`)] : [];
    return textStep({
      dimension,
      id: stepId(dimension, `judge${k + 1}`),
      label: `${dimension}: plot ${k + 1} (text judge)`,
      templateId,
      category: questionCategory(dimension, k),
      planned: (context) => (questionList(context, dimension)?.length ?? 0) > k,
      after: [...after, ...previous],
      notAsked: (context, outputs) => {
        if (previous.length) {
          const earlier = outputs.get(previous[0]!, 0);
          if (isNotAsked(earlier)) return earlier.notAsked;
          if (saidYes(earlier) === false) return `not asked: plot ${k} was not found (VBench stops at the first)`;
        }
        const answer = plotAnswer(context, outputs);
        if (answer && "items" in answer && answer.items.length <= k)
          return `not asked: the answer lists ${answer.items.length} plot${answer.items.length === 1 ? "" : "s"}`;
        return null;
      },
      values: (context, outputs) => {
        const expected = questionList(context, dimension)?.[k] ?? "";
        const answer = plotAnswer(context, outputs);
        if (!answer) return { prompt1: expected, prompt2: "" };
        // VBench strips the expected plot only when it compares it with the whole answer.
        if (!("whole" in answer)) return { prompt1: expected, prompt2: answer.items[k] ?? "" };
        const carried =
          previous.length > 0 &&
          options.wholeAnswerCarriesJudgeAnswer === true &&
          vbench2SettingsOf(context).variant === "faithful";
        return {
          prompt1: expected.trim(),
          prompt2: carried ? (answerText(outputs.get(previous[0]!, 0)) ?? "") : answer.whole,
        };
      },
    });
  });
}

export function plotQuestions(dimension: JudgedDimension) {
  return (context: VideoContext): QuestionRef[] =>
    (questionList(context, dimension) ?? []).slice(0, MOST_PLOTS).map((text, k) => ({
      text: `Plot ${k + 1} happens in the video: ${text}`,
      stepId: stepId(dimension, `judge${k + 1}`),
    }));
}

/** Plots found in order before the first one that is not, over the plots expected. */
export function consecutivePlots(answers: Answers, context: VideoContext, dimension: JudgedDimension): VideoValue {
  const expected = questionList(context, dimension)?.length ?? 0;
  if (expected === 0 || answers[0] === null || answers[0] === undefined) return valueOf(null);
  let found = 0;
  while (found < answers.length && answers[found] === true) found += 1;
  return valueOf(found / expected);
}
