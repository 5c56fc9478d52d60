/**
 * The JSON body of a webhook event, built when the event is fanned out (lib/webhooks/deliver.ts) and fixed then:
 * every attempt of a delivery sends the same bytes. Null when the event's subject is gone.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { appUrl } from "../config/app-url";

type Payload = {
  event: string;
  occurredAt: string;
  project: { id: string; name: string };
  data: Record<string, unknown>;
};

export async function payloadOf(
  prisma: PrismaClient,
  event: { projectId: string; event: string; subjectId: string; occurredAt: Date },
): Promise<Payload | null> {
  const project = await prisma.project.findUnique({ where: { id: event.projectId }, select: { id: true, name: true } });
  if (!project) return null;
  const base = `${appUrl()}/projects/${project.id}`;
  const wrap = (data: Record<string, unknown>): Payload => ({
    event: event.event,
    occurredAt: event.occurredAt.toISOString(),
    project,
    data,
  });
  if (event.event === "run.finished" || event.event === "run.failed") {
    const run = await prisma.judgeRun.findUnique({
      where: { id: event.subjectId },
      select: { id: true, pipeline: true, status: true, createdAt: true, startedAt: true, finishedAt: true },
    });
    if (!run) return null;
    const byStatus = await prisma.runVideo.groupBy({
      by: ["status"],
      where: { runId: run.id },
      _count: { _all: true },
    });
    const videos = Object.fromEntries(byStatus.map((row) => [row.status, row._count._all]));
    return wrap({
      run: {
        ...run,
        createdAt: run.createdAt.toISOString(),
        startedAt: run.startedAt?.toISOString() ?? null,
        finishedAt: run.finishedAt?.toISOString() ?? null,
        videos,
        url: `${base}/runs/${run.id}`,
      },
    });
  }
  if (event.event === "queue.finished") {
    const queue = await prisma.reviewQueue.findUnique({
      where: { id: event.subjectId },
      select: { id: true, name: true, runId: true, scope: true, itemCount: true, reviewersPerItem: true },
    });
    return queue ? wrap({ queue: { ...queue, url: `${base}/queues/${queue.id}` } }) : null;
  }
  if (event.event === "label_set.imported") {
    const set = await prisma.labelSet.findUnique({
      where: { id: event.subjectId },
      select: { id: true, name: true, format: true, fileName: true, annotators: true, createdAt: true },
    });
    if (!set) return null;
    return wrap({ labelSet: { ...set, createdAt: set.createdAt.toISOString(), agreementUrl: `${base}/agreement` } });
  }
  if (event.event === "alignment.finished") {
    const run = await prisma.alignmentRun.findUnique({
      where: { id: event.subjectId },
      select: {
        id: true,
        status: true,
        rubricTaskId: true,
        rubricVersionId: true,
        error: true,
        report: true,
        finishedAt: true,
      },
    });
    if (!run) return null;
    const report = run.report as {
      heldOut?: {
        baseline: { kappa: unknown; f1: unknown };
        best: { kappa: unknown; f1: unknown };
        difference: { kappa: unknown };
      } | null;
      calls?: number;
      costUsd?: number;
    } | null;
    const heldOut = report?.heldOut
      ? {
          baseline: { kappa: report.heldOut.baseline.kappa, f1: report.heldOut.baseline.f1 },
          best: { kappa: report.heldOut.best.kappa, f1: report.heldOut.best.f1 },
          kappaDifference: report.heldOut.difference.kappa,
        }
      : null;
    return wrap({
      alignment: {
        id: run.id,
        status: run.status,
        rubricTaskId: run.rubricTaskId,
        savedRubricVersionId: run.rubricVersionId,
        error: run.error,
        heldOut,
        calls: report?.calls ?? null,
        costUsd: report?.costUsd ?? null,
        finishedAt: run.finishedAt?.toISOString() ?? null,
        url: `${base}/alignment`,
      },
    });
  }
  return null;
}
