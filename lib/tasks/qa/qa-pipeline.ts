/**
 * Video question answering (seed 004, InstructionBench's evaluation): the evaluated model is the run's
 * endpoint. Per question it gets N uniform frames of the video (resized as planned) and the seed's API
 * evaluation prompt; its answer is kept as given. A multiple-choice answer's option letter is read
 * deterministically (lib/tasks/qa/extract-letter.ts) and a judge is asked only when no single letter can be read
 * (seed 004's option-consistency prompt); an open answer always goes to the judge (the answer-consistency
 * prompt). The judge is `settings.judgeEndpointId`, else the run's endpoint. With `textOnlyBaseline` the
 * model also answers every question without frames (the seed's blind prompts), decided the same way.
 */
import { z } from "zod";
import { extractOptionLetter, type LetterExtraction } from "./extract-letter";
import { describeResize, frameSetFitsPlan, planFrames } from "../../frames/frame-plan";
import {
  correctOption,
  indentedOptionLines,
  judgementAnswerSchema,
  judgementResponseFormat,
  optionLinesForAnswer,
} from "./qa-answers";
import type { QuestionPayload } from "./question-set-import";
import type {
  ItemRef,
  RawAnswer,
  StepDefinition,
  StepInput,
  StepOutputs,
  VideoContext,
} from "../../task-modules/pipeline-types";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { QA_TASK } from "./qa-task";

export const qaResizeSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("quarter") }),
  z.strictObject({ mode: z.literal("longest_side"), px: z.int().min(64).max(4096) }),
]);

export const qaSettingsSchema = z.strictObject({
  /** Uniform frames per question: seed 004 evaluates API models with 8 and with 16. */
  frames: z.union([z.literal(8), z.literal(16)], { error: "frames must be 8 or 16" }).default(8),
  /** How the frames are sized: a quarter of the video's area (the seed's), or a longest side in pixels. */
  resize: qaResizeSchema.default({ mode: "quarter" }),
  /** The model also answers every question without frames, to show how much comes from language priors. */
  textOnlyBaseline: z.boolean().default(false),
  /** The endpoint that judges open answers and letterless multiple-choice answers; default the run's own. */
  judgeEndpointId: z.string().min(1).max(64).optional(),
});
export type QaSettings = z.output<typeof qaSettingsSchema>;

/** How a question's correctness was decided (the decide steps' output). */
export interface QaDecision {
  outcome: "correct" | "wrong";
  decidedBy: "letter" | "judge";
  /** Multiple choice: the letter read from the answer, or null when the judge decided. */
  letter: string | null;
  /** Multiple choice decided by the judge: why no single letter could be read. */
  extraction: string | null;
  judgement: "Yes" | "No" | null;
  reason: string;
}

export interface QaItemSummary {
  itemId: string;
  outcome: "correct" | "wrong" | "unanswerable";
  textOnlyOutcome: "correct" | "wrong" | "unanswerable" | null;
  decidedBy: "letter" | "judge" | null;
}

const questionOf = (item: ItemRef) => item.payload as QuestionPayload;
const isMc = (item: ItemRef) => questionOf(item).format === "mc";
const settingsOf = (context: VideoContext) => qaSettingsSchema.parse(context.settings ?? {});

function answerStep(id: "answer" | "text_only_answer"): StepDefinition {
  const textOnly = id === "text_only_answer";
  return {
    id,
    label: textOnly ? "Answer without frames (text-only baseline)" : "Answer (the evaluated model)",
    scope: "item",
    templateId: textOnly ? "qa/text-only-mc" : "qa/answer-mc",
    templateIdFor: (scopeIndex, context) =>
      `qa/${textOnly ? "text-only" : "answer"}-${isMc(context.items[scopeIndex]!) ? "mc" : "open"}`,
    rawAnswer: true,
    schema: z.custom<RawAnswer>(),
    dependsOn: () => [],
    ...(textOnly ? { planned: (context: VideoContext) => settingsOf(context).textOnlyBaseline } : {}),
    input: (scopeIndex, context) => {
      const question = questionOf(context.items[scopeIndex]!);
      const values: Record<string, string> = { question: question.question };
      if (question.options)
        values.options = textOnly ? indentedOptionLines(question.options) : optionLinesForAnswer(question.options);
      return { values, frames: textOnly ? [] : context.frames };
    },
  };
}

interface DecideData {
  format: "mc" | "open";
  correct: string;
  extraction: LetterExtraction | null;
}

const answerText = (answer: RawAnswer) => (answer.text.trim() ? answer.text : (answer.refusal ?? answer.text));

function decideStep(
  id: "decide" | "text_only_decide",
  answerStepId: "answer" | "text_only_answer",
): StepDefinition<QaDecision> {
  const input = (scopeIndex: number, context: VideoContext, outputs: StepOutputs): StepInput => {
    const question = questionOf(context.items[scopeIndex]!);
    const answer = outputs.get(answerStepId, scopeIndex) as RawAnswer;
    const student = answerText(answer);
    if (question.format === "mc") {
      const options = question.options!;
      const data: DecideData = {
        format: "mc",
        correct: question.answer,
        extraction: extractOptionLetter(student, options),
      };
      return {
        values: {
          question: question.question,
          options: indentedOptionLines(options),
          correct_answer: correctOption(options, question.answer),
          student_answer: student,
        },
        frames: [],
        data,
      };
    }
    const data: DecideData = { format: "open", correct: question.answer, extraction: null };
    return {
      values: { question: question.question, correct_answer: question.answer, student_answer: student },
      frames: [],
      data,
    };
  };
  return {
    id,
    label:
      id === "decide" ? "Correctness (letter, else the judge)" : "Correctness without frames (letter, else the judge)",
    scope: "item",
    templateId: "qa/judge-option",
    templateIdFor: (scopeIndex, context) => (isMc(context.items[scopeIndex]!) ? "qa/judge-option" : "qa/judge-open"),
    endpoint: "judge",
    schema: z.never(),
    // The judge's answer becomes the decision, carrying why no letter could be read.
    schemaFor: (stepInput) => {
      const data = stepInput.data as DecideData;
      return judgementAnswerSchema.transform((answer): QaDecision => ({
        outcome: answer.Judgement === "Yes" ? "correct" : "wrong",
        decidedBy: "judge",
        letter: null,
        extraction: data.extraction?.reason ?? null,
        judgement: answer.Judgement,
        reason: answer.Reason,
      })) as unknown as z.ZodType<QaDecision>;
    },
    responseFormat: judgementResponseFormat(),
    dependsOn: (scopeIndex) => [{ stepId: answerStepId, scopeIndex }],
    ...(id === "text_only_decide" ? { planned: (context: VideoContext) => settingsOf(context).textOnlyBaseline } : {}),
    input,
    settle: (stepInput) => {
      const data = stepInput.data as DecideData;
      const letter = data.extraction?.letter;
      if (data.format !== "mc" || !letter) return null;
      const right = letter === data.correct;
      return {
        outcome: right ? "correct" : "wrong",
        decidedBy: "letter",
        letter,
        extraction: null,
        judgement: null,
        reason: `${data.extraction!.reason[0]!.toUpperCase()}${data.extraction!.reason.slice(1)}; the correct option is ${data.correct}.`,
      };
    },
    ...(id === "decide"
      ? { scores: (output: QaDecision) => [{ category: "correctness", value: output.outcome === "correct" ? 1 : 0 }] }
      : {}),
  };
}

const steps: StepDefinition[] = [
  answerStep("answer"),
  decideStep("decide", "answer") as StepDefinition,
  answerStep("text_only_answer"),
  decideStep("text_only_decide", "text_only_answer") as StepDefinition,
];

const binary = (outcome: QaItemSummary["outcome"] | null) =>
  outcome === "correct" ? 1 : outcome === "wrong" ? 0 : null;

export const qaPipeline: RegisteredPipeline = {
  id: "qa",
  label: "Video question answering (seed 004)",
  task: QA_TASK,
  steps,
  settingsSchema: qaSettingsSchema,
  frames: (settings) => {
    const { frames, resize } = qaSettingsSchema.parse(settings ?? {});
    return {
      mode: "uniform",
      count: frames,
      label: `a uniform frame set of ${frames} frames at ${describeResize(resize)}`,
      accepts: (video, set) => {
        const plan = planFrames(video, resize);
        return plan.ok && frameSetFitsPlan(plan, set);
      },
    };
  },
  items: { kind: "question", setNoun: "question", setField: "questionSetId" },
  endpointIds: (settings) => ({ judge: qaSettingsSchema.parse(settings ?? {}).judgeEndpointId }),
  summarize: (_scores, context, settings, outputs) => {
    const { textOnlyBaseline } = qaSettingsSchema.parse(settings ?? {});
    const items: QaItemSummary[] = context.items.map((item, scopeIndex) => {
      const decision = outputs.get("decide", scopeIndex) as QaDecision | null | undefined;
      const textOnly = textOnlyBaseline
        ? (outputs.get("text_only_decide", scopeIndex) as QaDecision | null | undefined)
        : undefined;
      return {
        itemId: item.id,
        // Every step has ended by now: a question with no decision could not be decided.
        outcome: decision?.outcome ?? "unanswerable",
        textOnlyOutcome: textOnly === undefined ? null : (textOnly?.outcome ?? "unanswerable"),
        decidedBy: decision?.decidedBy ?? null,
      };
    });
    return { items, complete: items.every((item) => item.outcome !== "unanswerable") };
  },
  // Its metrics are per question, not per video.
  metricValues: () => ({}),
  itemMetrics: (summary) =>
    (summary as { items: QaItemSummary[] }).items.map((item) => ({
      itemId: item.itemId,
      values: {
        correct: binary(item.outcome),
        correct_without_video: binary(item.textOnlyOutcome),
        judge_decided: item.decidedBy === null ? null : item.decidedBy === "judge" ? 1 : 0,
      },
    })),
};
