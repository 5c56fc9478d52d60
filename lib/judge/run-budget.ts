/**
 * A run's budget: once what its calls cost (every call row's cost, lost and in-flight calls at their estimates,
 * lib/judge/lost-calls.ts) reaches `budgetUsd`, the run stops as a cancelled run with `stopReason: "budget"`: its
 * unfinished steps and videos are cancelled, its finished steps and the response cache keep their answers. Raising
 * the budget resumes it: the cancelled steps go back to pending and its unfinished videos are judged again, so
 * nothing already answered is asked again.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import type { JudgeQueue } from "./judge-queue";

export const BUDGET_STOP = "budget";

/** What the run's calls have cost so far (US dollars). */
export async function runSpendUsd(prisma: PrismaClient, runId: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ spend: number | null }[]>`
    SELECT sum("costUsd")::float8 AS spend FROM llm_call WHERE "runId" = ${runId}`;
  return row?.spend ?? 0;
}

/**
 * Stops the run when it has a budget and its spend has reached it; true when the run is (now) stopped by it. Two
 * workers may both find it over: the status update lets one of them stop it, and both see it stopped.
 */
export async function stopWhenOverBudget(
  prisma: PrismaClient,
  run: { id: string; status: string; budgetUsd: number | null },
): Promise<boolean> {
  if (run.budgetUsd === null || (run.status !== "queued" && run.status !== "running")) return false;
  if ((await runSpendUsd(prisma, run.id)) < run.budgetUsd) return false;
  const now = new Date();
  await prisma.$transaction([
    prisma.judgeRun.updateMany({
      where: { id: run.id, status: { in: ["queued", "running"] } },
      data: { status: "cancelled", stopReason: BUDGET_STOP, finishedAt: now },
    }),
    prisma.runVideo.updateMany({ where: { runId: run.id, status: "queued" }, data: { status: "cancelled" } }),
    prisma.stepResult.updateMany({
      where: { runId: run.id, status: "pending" },
      data: { status: "cancelled", finishedAt: now },
    }),
  ]);
  return true;
}

/**
 * Raises a budget-stopped run's budget and judges its unfinished videos again; the new budget must be above what the
 * run has spent. A run cancelled by a member, or one still running or finished, is refused.
 */
export async function resumeRun(
  deps: { prisma: PrismaClient; queue: JudgeQueue },
  actor: Actor,
  runId: string,
  input: { budgetUsd: number | null },
) {
  const { prisma } = deps;
  const run = await prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { projectId: true, status: true, stopReason: true },
  });
  if (!run) throw new NotFoundError("No such run.");
  await requireProjectAccess(prisma, actor, run.projectId, "runs.manage").catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such run.") : error;
  });
  if (run.status !== "cancelled" || run.stopReason !== BUDGET_STOP)
    throw new ConflictError("Only a run stopped by its budget resumes: this one was not.");
  const spend = await runSpendUsd(prisma, runId);
  if (input.budgetUsd !== null && input.budgetUsd <= spend)
    throw new ValidationError(
      `The new budget must be above what the run has spent ($${spend.toFixed(4)}): it would stop again at once.`,
    );
  const videos = await prisma.$transaction(async (tx) => {
    const resumed = await tx.judgeRun.updateMany({
      where: { id: runId, status: "cancelled", stopReason: BUDGET_STOP },
      data: { status: "queued", stopReason: null, finishedAt: null, budgetUsd: input.budgetUsd },
    });
    if (resumed.count === 0) throw new ConflictError("The run was resumed meanwhile.");
    await tx.stepResult.updateMany({
      where: { runId, status: "cancelled" },
      data: { status: "pending", finishedAt: null },
    });
    await tx.runVideo.updateMany({ where: { runId, status: "cancelled" }, data: { status: "queued" } });
    return tx.runVideo.findMany({ where: { runId, status: "queued" }, select: { videoId: true } });
  });
  await deps.queue.enqueue(videos.map((v) => ({ runId, videoId: v.videoId })));
  return { id: runId, videos: videos.length, budgetUsd: input.budgetUsd };
}
