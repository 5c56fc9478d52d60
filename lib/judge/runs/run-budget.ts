/**
 * A run's budget. Each call to an endpoint reserves its estimated cost against the run (`committedUsd`) once it holds
 * its endpoint slot, right before its request is sent, and only while the run's settled cost plus every reservation
 * plus this one stays within `budgetUsd`; its answer then settles the reservation to what the call cost. A call whose
 * reservation is refused is not sent, and the run stops: a cancelled run with `stopReason: "budget"`, its unfinished
 * steps and videos cancelled, its finished steps and the response cache keeping their answers. So no call starts once
 * the budget is reached, and the spend passes it by at most what the calls then in flight (`callsInFlightAtStop`)
 * cost beyond their estimates. A call priced at nothing (an endpoint without prices) reserves nothing and is never
 * refused; a batch run's answers are counted as they come (its spend reaching the budget stops it). An ensemble run
 * stops with its member that its budget stopped. Raising the budget resumes it: the cancelled steps go back to pending
 * and its unfinished videos are judged again, so nothing already answered is asked again.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import type { JudgeQueue } from "../workers/judge-queue";

export const BUDGET_STOP = "budget";

/** Reservations within this of the budget fit it: sums of floating-point prices may pass it by a rounding error. */
const ROUNDING_USD = 1e-9;

/** What the run's calls have cost so far (US dollars; lost and in-flight calls at their estimates). */
export async function runSpendUsd(prisma: PrismaClient, runId: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ spend: number | null }[]>`
    SELECT sum("costUsd")::float8 AS spend FROM llm_call WHERE "runId" = ${runId}`;
  return row?.spend ?? 0;
}

/**
 * Reserves a call's estimated cost against its run's budget, in one statement that several workers may run at once
 * for the same run: true when the call may be sent (the run is still judging, and its budget, if any, holds the
 * estimate beside everything reserved and spent); false when it must not be.
 */
export async function reserveCallCost(prisma: PrismaClient, runId: string, estimateUsd: number): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE judge_run SET "committedUsd" = "committedUsd" + ${estimateUsd}, "callsInFlight" = "callsInFlight" + 1
    WHERE id = ${runId} AND status IN ('queued', 'running')
      AND ("budgetUsd" IS NULL OR "committedUsd" + ${estimateUsd} <= "budgetUsd" + ${ROUNDING_USD})
    RETURNING id`;
  return rows.length > 0;
}

/** Replaces a call's reservation by what it cost, once its attempt has ended. */
export async function settleCallCost(
  prisma: PrismaClient,
  runId: string,
  call: { reservedUsd: number; costUsd: number },
): Promise<void> {
  await prisma.$executeRaw`
    UPDATE judge_run SET "committedUsd" = "committedUsd" + ${call.costUsd - call.reservedUsd},
      "callsInFlight" = greatest("callsInFlight" - 1, 0)
    WHERE id = ${runId}`;
}

/**
 * Stops a run for its budget, with the calls in flight at that moment; and its ensemble run with it, which is resumed
 * with it. A run no longer judging (finished, cancelled, already stopped) is left as it is.
 */
export async function stopForBudget(prisma: PrismaClient, runId: string): Promise<void> {
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    const stopped = await tx.$queryRaw<{ parentRunId: string | null }[]>`
      UPDATE judge_run SET status = 'cancelled', "stopReason" = ${BUDGET_STOP}, "finishedAt" = ${now},
        "callsInFlightAtStop" = "callsInFlight"
      WHERE id = ${runId} AND status IN ('queued', 'running')
      RETURNING "parentRunId"`;
    if (stopped.length === 0) return;
    const parentRunId = stopped[0]!.parentRunId;
    const stoppedParent = parentRunId
      ? await tx.judgeRun.updateMany({
          where: { id: parentRunId, status: { in: ["queued", "running"] } },
          data: { status: "cancelled", stopReason: BUDGET_STOP, finishedAt: now },
        })
      : { count: 0 };
    const runIds = stoppedParent.count > 0 ? [runId, parentRunId!] : [runId];
    await tx.runVideo.updateMany({ where: { runId: { in: runIds }, status: "queued" }, data: { status: "cancelled" } });
    await tx.stepResult.updateMany({
      where: { runId, status: "pending" },
      data: { status: "cancelled", finishedAt: now },
    });
  });
}

/**
 * Stops the run when it has a budget and its spend has reached it; true when the run is (now) stopped by it. Two
 * workers may both find it over: the status update lets one of them stop it, and both see it stopped. The spend is
 * what its calls reserved, or the cost of those that ended (a batch run's answers reserve nothing) when more; calls
 * recorded as sent but still waiting for a slot count only once they reserve, as they are about to be sent.
 */
export async function stopWhenOverBudget(
  prisma: PrismaClient,
  run: { id: string; status: string; budgetUsd: number | null; committedUsd: number },
): Promise<boolean> {
  if (run.budgetUsd === null || (run.status !== "queued" && run.status !== "running")) return false;
  const [ended] = await prisma.$queryRaw<{ spend: number | null }[]>`
    SELECT sum("costUsd")::float8 AS spend FROM llm_call WHERE "runId" = ${run.id} AND status <> 'sent'`;
  if (Math.max(run.committedUsd, ended?.spend ?? 0) < run.budgetUsd) return false;
  await stopForBudget(prisma, run.id);
  return true;
}

/**
 * The least a new budget of a stopped run must pass: the budget that stopped it (its next call did not fit), and what
 * it has taken, its calls' cost or its reservations when these are more (a worker that died with calls reserved).
 */
async function budgetToPassUsd(prisma: PrismaClient, runId: string): Promise<number> {
  const run = await prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { committedUsd: true, budgetUsd: true },
  });
  return Math.max(await runSpendUsd(prisma, runId), run?.committedUsd ?? 0, run?.budgetUsd ?? 0);
}

/**
 * Raises a budget-stopped run's budget and judges its unfinished videos again; the new budget must be above the one
 * that stopped it and what the run has spent. An ensemble run (named itself or by one of its members) resumes its members that the budget stopped,
 * and every unfinished member takes the new budget. A run cancelled by a member, or one still running or finished, is
 * refused.
 */
export async function resumeRun(
  deps: { prisma: PrismaClient; queue: JudgeQueue },
  access: ProjectAccess<"runs.manage">,
  runId: string,
  input: { budgetUsd: number | null },
) {
  const { prisma } = deps;
  // A run of another project is as unknown as one that does not exist.
  const inProject = { projectId: access.projectId };
  const named = await prisma.judgeRun.findFirst({ where: { id: runId, ...inProject }, select: { parentRunId: true } });
  const headId = named?.parentRunId ?? runId;
  const run = await prisma.judgeRun.findFirst({
    where: { id: headId, ...inProject },
    select: { projectId: true, status: true, stopReason: true, ensemble: true },
  });
  if (!named || !run) throw new NotFoundError("No such run.");
  if (run.status !== "cancelled" || run.stopReason !== BUDGET_STOP)
    throw new ConflictError("Only a run stopped by its budget resumes: this one was not.");
  const members = run.ensemble
    ? await prisma.judgeRun.findMany({
        where: { parentRunId: headId, status: "cancelled", stopReason: BUDGET_STOP },
        select: { id: true },
      })
    : [];
  const judging = run.ensemble ? members.map((m) => m.id) : [headId];
  const least = Math.max(0, ...(await Promise.all(judging.map((id) => budgetToPassUsd(prisma, id)))));
  if (input.budgetUsd !== null && input.budgetUsd <= least)
    throw new ValidationError(
      `The new budget must be above the budget that stopped the run and what it has spent ($${least.toFixed(4)}): it would stop again at once.`,
    );
  const jobs = await prisma.$transaction(async (tx) => {
    const resumed = await tx.judgeRun.updateMany({
      where: { id: headId, status: "cancelled", stopReason: BUDGET_STOP },
      data: {
        status: "queued",
        stopReason: null,
        finishedAt: null,
        callsInFlightAtStop: null,
        budgetUsd: input.budgetUsd,
      },
    });
    if (resumed.count === 0) throw new ConflictError("The run was resumed meanwhile.");
    if (run.ensemble) {
      await tx.judgeRun.updateMany({
        where: { id: { in: judging } },
        data: { status: "queued", stopReason: null, finishedAt: null, callsInFlightAtStop: null },
      });
      // Members still judging take the new budget too: else the next of them to reach the old one stops it again.
      await tx.judgeRun.updateMany({
        where: { parentRunId: headId, status: { in: ["queued", "running"] } },
        data: { budgetUsd: input.budgetUsd },
      });
      await tx.runVideo.updateMany({ where: { runId: headId, status: "cancelled" }, data: { status: "queued" } });
    }
    await tx.stepResult.updateMany({
      where: { runId: { in: judging }, status: "cancelled" },
      data: { status: "pending", finishedAt: null },
    });
    await tx.runVideo.updateMany({
      where: { runId: { in: judging }, status: "cancelled" },
      data: { status: "queued" },
    });
    return tx.runVideo.findMany({
      where: { runId: { in: judging }, status: "queued" },
      select: { runId: true, videoId: true },
    });
  });
  await deps.queue.enqueue(jobs.map((job) => ({ runId: job.runId, videoId: job.videoId })));
  return { id: headId, videos: new Set(jobs.map((job) => job.videoId)).size, budgetUsd: input.budgetUsd };
}
