/**
 * The text-only baseline of an imported harness run: the answers of an earlier text-only run, read by question
 * and copied as the new run's own text-only steps.
 */
import type { PrismaClient, StepStatus } from "../../generated/prisma/client";
import { NotFoundError, ValidationError } from "../../errors";
import { QA_PIPELINE } from "./qa-run-summary";

/** A text-only run's answer to one question: its answer and decide steps as stored. */
export interface BaselineAnswer {
  answer:
    | { status: StepStatus; output: unknown; rawText: string | null; templateId: string | null; error: string | null }
    | undefined;
  decide: { status: StepStatus; output: unknown; templateId: string | null; error: string | null } | undefined;
}

/**
 * The text-only answers of a baseline run by question: an own QA run's text-only baseline steps, or the
 * answers of an external run imported as text-only. Refused when the run is neither, or is not done.
 */
export async function baselineAnswers(
  prisma: PrismaClient,
  projectId: string,
  baselineRunId: string,
): Promise<Map<string, BaselineAnswer>> {
  const run = await prisma.judgeRun.findFirst({
    where: { id: baselineRunId, projectId, pipeline: QA_PIPELINE },
    select: { id: true, status: true, settings: true, endpointSnapshot: true },
  });
  if (!run) throw new NotFoundError("No such QA run in this project for the text-only baseline.");
  const external = (run.endpointSnapshot as { external?: { textOnly?: unknown } } | null)?.external;
  const ownBaseline = (run.settings as { textOnlyBaseline?: unknown } | null)?.textOnlyBaseline === true;
  if (!ownBaseline && external?.textOnly !== true)
    throw new ValidationError(
      "The baseline must be a text-only run: a QA run with its text-only baseline, or an external run imported as text-only.",
    );
  if (run.status !== "done")
    throw new ValidationError(`The baseline run is ${run.status}: it can serve as a baseline once it is done.`);
  const [answerStep, decideStep] =
    external?.textOnly === true ? ["answer", "decide"] : ["text_only_answer", "text_only_decide"];
  const steps = await prisma.stepResult.findMany({
    where: { runId: run.id, stepId: { in: [answerStep!, decideStep!] } },
    select: { itemId: true, stepId: true, status: true, output: true, rawText: true, templateId: true, error: true },
  });
  const byItem = new Map<string, BaselineAnswer>();
  for (const step of steps) {
    const entry = byItem.get(step.itemId) ?? { answer: undefined, decide: undefined };
    if (step.stepId === answerStep) entry.answer = step;
    else entry.decide = step;
    byItem.set(step.itemId, entry);
  }
  return byItem;
}

/** The text-only steps an external run gets from its baseline's answer (skipped when the baseline has none). */
export function baselineSteps(
  common: { runId: string; videoId: string; itemId: string; scopeIndex: number; startedAt: Date; finishedAt: Date },
  answer: BaselineAnswer | undefined,
  isMc: boolean,
) {
  const missing = "The baseline run has no answer to this question.";
  const answered = answer?.answer?.status === "done";
  return [
    answered
      ? {
          ...common,
          stepId: "text_only_answer",
          status: "done" as const,
          templateId: isMc ? "qa/text-only-mc" : "qa/text-only-open",
          output: answer.answer!.output as never,
          rawText: answer.answer!.rawText,
        }
      : {
          ...common,
          stepId: "text_only_answer",
          status: "skipped" as const,
          templateId: isMc ? "qa/text-only-mc" : "qa/text-only-open",
          error: answer?.answer?.error ?? missing,
        },
    answered && answer.decide?.status === "done"
      ? {
          ...common,
          stepId: "text_only_decide",
          status: "done" as const,
          templateId: answer.decide.templateId ?? (isMc ? "qa/judge-option" : "qa/judge-open"),
          output: answer.decide.output as never,
        }
      : {
          ...common,
          stepId: "text_only_decide",
          status: "skipped" as const,
          templateId: isMc ? "qa/judge-option" : "qa/judge-open",
          error: answer?.decide?.error ?? missing,
        },
  ];
}
