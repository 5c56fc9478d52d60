/**
 * Writing an imported harness run, inside the import's one transaction: the questions it creates, the run with
 * its videos, its items, the steps an own run would have (answer, decide, the baseline's text-only steps), and the
 * scores and metrics the engine writes for a decided answer.
 */
import type { Prisma } from "../../generated/prisma/client";
import { baselineSteps, type BaselineAnswer } from "./harness-baseline";
import type { HarnessImportFields } from "./harness-fields";
import type { CreatedQuestion, decideWithoutJudge } from "./harness-match";
import type { HarnessRow, SetQuestion } from "./harness-rows";
import type { QaDecision } from "./qa-pipeline";
import { QA_PIPELINE } from "./qa-run-summary";

/** A matched row with the decision made on it without an LLM. */
export interface HarnessDecision {
  row: HarnessRow;
  question: SetQuestion | CreatedQuestion;
  result: ReturnType<typeof decideWithoutJudge>;
}

/** The judge endpoint that decides the undecided answers. */
export interface HarnessJudge {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
}

/** A video of the run: queued for the engine's judge, or done with the summary the pipeline would write. */
export type HarnessRunVideo =
  | { videoId: string; frameSetId: string; status: "queued" }
  | {
      videoId: string;
      frameSetId: string;
      status: "done";
      summary: {
        items: { itemId: string; outcome: string; textOnlyOutcome: string | null; decidedBy: string | null }[];
        complete: boolean;
      };
    };

/** Everything the import decided, ready to be stored. */
export interface HarnessRunPlan {
  projectId: string;
  setId: string;
  userId: string;
  endpointId: string;
  fields: HarnessImportFields;
  judge: HarnessJudge | null;
  decisions: HarnessDecision[];
  toCreate: CreatedQuestion[];
  judging: number;
  baseline: Map<string, BaselineAnswer> | null;
  runVideos: HarnessRunVideo[];
  now: Date;
}

/** Store the questions the import creates, giving each its stored id. */
async function createQuestions(tx: Prisma.TransactionClient, plan: HarnessRunPlan) {
  const { toCreate } = plan;
  if (!toCreate.length) return;
  const stored = await tx.item.createManyAndReturn({
    data: toCreate.map((q) => ({
      projectId: plan.projectId,
      setId: plan.setId,
      videoId: q.videoId,
      externalId: q.externalId,
      kind: "question",
      group: "",
      payload: q.payload as never,
    })),
    select: { id: true, externalId: true },
  });
  const idOf = new Map(stored.map((item) => [item.externalId, item.id]));
  for (const q of toCreate) q.itemId = idOf.get(q.externalId)!;
  await tx.itemSet.update({ where: { id: plan.setId }, data: { itemCount: { increment: toCreate.length } } });
}

/** The run record: an external model's run on its archived endpoint, queued when a judge has answers to decide. */
async function createRun(tx: Prisma.TransactionClient, plan: HarnessRunPlan): Promise<string> {
  const { fields, judge, now, runVideos } = plan;
  const queued = plan.judging > 0;
  const run = await tx.judgeRun.create({
    data: {
      projectId: plan.projectId,
      pipeline: QA_PIPELINE,
      endpointId: plan.endpointId,
      status: queued ? "queued" : "done",
      settings: {
        frames: 8,
        resize: { mode: "quarter" },
        textOnlyBaseline: plan.baseline !== null,
        ...(judge ? { judgeEndpointId: judge.id } : {}),
      },
      endpointSnapshot: {
        name: `External: ${fields.model}`,
        model: fields.model,
        external: {
          source: fields.format,
          questionSetId: plan.setId,
          ...(fields.textOnly ? { textOnly: true } : {}),
          ...(fields.baselineRunId ? { baselineRunId: fields.baselineRunId } : {}),
        },
        ...(judge
          ? { roles: { judge: { id: judge.id, name: judge.name, baseUrl: judge.baseUrl, model: judge.model } } }
          : {}),
      },
      simulated: judge ? /^stub/i.test(judge.model) || judge.name.toLowerCase().includes("simulated") : false,
      createdById: plan.userId,
      startedAt: queued ? null : now,
      finishedAt: queued ? null : now,
      // The videos whose answers the judge decides: the engine judges them as it judges an own run's.
      ...(runVideos.length ? { videos: { createMany: { data: runVideos } } } : {}),
    },
    select: { id: true },
  });
  return run.id;
}

/** Each answer's steps, numbered per video as the engine numbers an own run's items. */
function stepsOf(runId: string, plan: HarnessRunPlan) {
  const { decisions, judge, baseline, now } = plan;
  const positions = new Map<string, number>();
  return decisions.flatMap((d) => {
    const scopeIndex = positions.get(d.question.videoId) ?? 0;
    positions.set(d.question.videoId, scopeIndex + 1);
    const common = {
      runId,
      videoId: d.question.videoId,
      itemId: d.question.itemId,
      scopeIndex,
      startedAt: now,
      finishedAt: now,
    };
    const isMc = d.question.payload.format === "mc";
    return [
      {
        ...common,
        stepId: "answer",
        status: "done" as const,
        templateId: isMc ? "qa/answer-mc" : "qa/answer-open",
        output: { text: d.row.prediction, refusal: null, finishReason: null },
        rawText: d.row.prediction,
      },
      "decision" in d.result
        ? {
            ...common,
            stepId: "decide",
            status: "done" as const,
            templateId: "qa/judge-option",
            output: d.result.decision as never,
          }
        : judge
          ? null // planned and run by the engine, with the judge endpoint
          : {
              ...common,
              stepId: "decide",
              status: "skipped" as const,
              templateId: isMc ? "qa/judge-option" : "qa/judge-open",
              error: d.result.undecided,
            },
      // The baseline's answer without the video, copied as this run's own text-only steps (as an own run's baseline).
      ...(baseline ? baselineSteps(common, baseline.get(d.question.itemId), isMc) : []),
    ].filter((step) => step !== null);
  });
}

/** The item metrics of the letter-decided answers, and of the baseline's decided answers. */
function metricsOf(runId: string, plan: HarnessRunPlan) {
  const { decisions, baseline } = plan;
  const own = decisions.flatMap((d) =>
    "decision" in d.result
      ? [
          {
            runId,
            videoId: d.question.videoId,
            itemId: d.question.itemId,
            metric: "correct",
            value: d.result.decision.outcome === "correct" ? 1 : 0,
          },
          // As the pipeline's item metrics: review queues pick answers by it (a letter read: 0).
          { runId, videoId: d.question.videoId, itemId: d.question.itemId, metric: "judge_decided", value: 0 },
        ]
      : [],
  );
  const withoutVideo = baseline
    ? decisions.flatMap((d) => {
        const decide = baseline.get(d.question.itemId)?.decide;
        const outcome = decide?.status === "done" ? (decide.output as QaDecision).outcome : null;
        return outcome
          ? [
              {
                runId,
                videoId: d.question.videoId,
                itemId: d.question.itemId,
                metric: "correct_without_video",
                value: outcome === "correct" ? 1 : 0,
              },
            ]
          : [];
      })
    : null;
  return { own, withoutVideo };
}

/** Store the planned run (in the caller's transaction); its id. */
export async function writeHarnessRun(tx: Prisma.TransactionClient, plan: HarnessRunPlan): Promise<string> {
  await createQuestions(tx, plan);
  const runId = await createRun(tx, plan);
  const perVideo = new Map<string, number>();
  await tx.runItem.createMany({
    data: plan.decisions.map((d) => {
      const position = perVideo.get(d.question.videoId) ?? 0;
      perVideo.set(d.question.videoId, position + 1);
      return { runId, itemId: d.question.itemId, videoId: d.question.videoId, position };
    }),
  });
  const stored = await tx.stepResult.createManyAndReturn({
    data: stepsOf(runId, plan),
    select: { id: true, videoId: true, itemId: true, stepId: true, scopeIndex: true, status: true, output: true },
  });
  // The correctness score, as the engine writes it for a decided answer: reviews, queues and agreement read it.
  await tx.score.createMany({
    data: stored
      .filter((step) => step.stepId === "decide" && step.status === "done")
      .map((step) => ({
        runId,
        videoId: step.videoId,
        stepResultId: step.id,
        itemId: step.itemId,
        stepId: step.stepId,
        scopeIndex: step.scopeIndex,
        category: "correctness",
        value: (step.output as unknown as QaDecision).outcome === "correct" ? 1 : 0,
      })),
  });
  const metrics = metricsOf(runId, plan);
  await tx.runMetric.createMany({ data: metrics.own });
  if (metrics.withoutVideo) await tx.runMetric.createMany({ data: metrics.withoutVideo });
  return runId;
}
