/**
 * One step of one video, from its input to its stored end: computed or settled without a call, or asked of an LLM
 * (buildRequest, then the recovery loop), and its end written with its scores, calls and cache entries.
 */
import type { Prisma } from "../../generated/prisma/client";
import { LlmError } from "../calls/llm-client";
import { stepErrorMessage } from "../calls/step-errors";
import { AwaitingBatch, stepAwaitsBatch } from "../batch/batch-requests";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import type { StepStart } from "./answer";
import { buildRequest, type RequestWork } from "./build-request";
import type { EndpointConfig, JudgeDeps } from "./judge-deps";
import type { StepDefinition } from "../../task-modules/pipeline-types";
import { recover, type StepEnd } from "./recovery";
import type { CallRow, JudgeStore, StepFinish, StepRow } from "./step-store";
import { asStoredJson } from "./stored-json";
import { describeForLog, stepKeys, Writes } from "./writes";

/** A step to run, with what every step of its video shares. */
export interface StepWork extends RequestWork {
  task: TaskDeclaration;
  endpoint: EndpointConfig;
  step: StepDefinition;
  row: StepRow;
  closedByCancel(row: StepRow): void;
  awaitBatch(row: StepRow): void;
  /** The video is set up: called once a step has looked up its answer. */
  ready(): void;
}

type Progress = { start: StepStart; calls: CallRow[]; earlier: Writes };

/** Runs a step and stores its end; the row in memory then holds the status (and output and scores) stored. */
export async function executeStep(deps: JudgeDeps, store: JudgeStore, work: StepWork): Promise<void> {
  const { step, row } = work;
  const base = stepKeys({ runId: work.runId, videoId: work.context.videoId }, row);
  const startedAt = new Date();
  // A step that makes a call is marked running before the call, with its cache look-up (and makes none
  // when it is no longer pending); one answered from the cache, or computed, only when it is finished.
  const start = { id: row.id, at: startedAt, done: false, lookedUp: work.ready };
  const attempt = () => (start.done ? {} : { startedAt });
  // Call rows not written yet: they go with the step's end, in the same statement. Call rows written before the
  // step ends (an answer that a repair follows) go through `earlier`: the step waits for them.
  const progress: Progress = { start, calls: [], earlier: new Writes() };
  let finish: StepFinish;
  try {
    const end = await stepEnd(deps, store, work, progress);
    finish = { ...base, ...end, ...attempt(), finishedAt: new Date(), calls: progress.calls };
  } catch (error) {
    if (error instanceof AwaitingBatch) {
      await progress.earlier.settled();
      await stepAwaitsBatch(deps.prisma, row.id);
      return work.awaitBatch(row);
    }
    const status = error instanceof LlmError && error.kind === "cancelled" ? "cancelled" : "failed";
    // Members read the stored error: a short message and the class. The stack stays in the log.
    finish = { ...base, ...failedEnd(status, error), ...attempt(), finishedAt: new Date(), calls: progress.calls };
    if (!(error instanceof LlmError) || error.cause !== undefined) {
      (deps.log ?? console.error)(
        `step ${step.id}[${row.scopeIndex}] of video ${work.context.videoId} in run ${work.runId} failed: ${describeForLog(error)}`,
      );
    }
  }
  await storeStepEnd(deps, store, work, { finish, earlier: progress.earlier, attempt });
}

/** How the step ends: computed or settled without a call, or by what its LLM answered. */
async function stepEnd(
  deps: JudgeDeps,
  store: JudgeStore,
  work: StepWork,
  progress: Progress,
): Promise<StepEnd & { templateHash: string | null }> {
  const { step, row, endpoint } = work;
  const input = step.input(row.scopeIndex, work.context, work.outputs);
  // Computed without an LLM, or settled by the step's finished inputs: recorded like any step, with no call.
  const settled = step.compute ? null : (step.settle?.(input, work.context, work.outputs) ?? null);
  if (step.compute || settled !== null) {
    const output = step.compute ? step.compute(input, work.context, work.outputs) : settled;
    return {
      status: "done",
      output,
      rawText: null,
      templateHash: null,
      scores: step.scores?.(output, input) ?? [],
      cache: [],
    };
  }
  const built = await buildRequest(deps, work, { endpoint, step, row, input });
  const retry = { policy: deps.retryPolicy };
  const end = await recover(deps, store, { step, input, built, endpoint, task: work.task, retry }, progress);
  return { ...end, templateHash: built.templateHash };
}

function failedEnd(status: "failed" | "cancelled", error: unknown): StepEnd {
  return { status, error: stepErrorMessage(error), scores: [], cache: [] };
}

/** Writes the step's end after its earlier calls; a result the database refuses fails its step instead. */
async function storeStepEnd(
  deps: JudgeDeps,
  store: JudgeStore,
  work: StepWork,
  ending: { finish: StepFinish; earlier: Writes; attempt(): { startedAt?: Date } },
): Promise<void> {
  const { step, row } = work;
  let finish = ending.finish;
  let written: boolean;
  try {
    // Earlier calls are written before the step's end (writes may run side by side).
    await ending.earlier.settled();
    written = await store.finishStep(finish);
  } catch (error) {
    // A result the database refused (not a lost connection: that fails the next write too) fails its step only.
    if (finish.status !== "done") throw error;
    (deps.log ?? console.error)(
      `storing step ${step.id}[${row.scopeIndex}] of video ${work.context.videoId} in run ${work.runId} failed: ${describeForLog(error)}`,
    );
    const keys = stepKeys({ runId: work.runId, videoId: work.context.videoId }, row);
    finish = {
      ...keys,
      ...failedEnd("failed", error),
      ...ending.attempt(),
      finishedAt: new Date(),
      calls: finish.calls,
    };
    written = await store.finishStep(finish);
  }
  // A step ended cancelled (the run stopped while it waited for its call) has the video look at the run again at once.
  if (!written || finish.status === "cancelled") return work.closedByCancel(row);
  if (finish.status === "done") {
    // As the database keeps it: steps after this one render the same prompt in this pass as in any later one.
    row.output = asStoredJson(finish.output) as Prisma.JsonValue;
    row.scores = finish.scores;
  }
  row.status = finish.status;
}
