/**
 * What every video of a run that a process judges shares: whether the run was cancelled (or has just spent its
 * budget, which stops it), and the settings of the endpoints it calls, each read again once it is older than its
 * maximum age.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { EndpointConfig, JudgeDeps } from "./judge-deps";
import { stopWhenOverBudget } from "../runs/run-budget";

/** How fresh a worker's view of a run's status (cancelled or not) and of its endpoint's settings is. */
const RUN_STATUS_MAX_AGE_MS = 500;
const ENDPOINT_MAX_AGE_MS = 2000;

interface RunView {
  usedAt: number;
  status: { at: number; cancelled: boolean; reading: Promise<boolean> | null };
  /**
   * Whether the run has a budget, read once: a run gets one only when it is created (a resume may take it away,
   * and a reservation then passes).
   */
  budgeted: Promise<boolean> | null;
  /** By endpoint id ('' for the run's own endpoint). */
  endpoints: Map<string, { at: number; config: Promise<EndpointConfig> }>;
}
/** By database client: every video a process judges against one database shares its views of the runs. */
const runViews = new WeakMap<PrismaClient, Map<string, RunView>>();

export type RunWatch = ReturnType<typeof runWatch>;

/**
 * What every video of a run in this process shares: whether the run was cancelled (read at most every
 * 500 ms, however many videos ask) and the settings of the endpoints it calls (read at most every 2 s, so
 * a change reaches the next videos).
 */
export function runWatch(deps: Pick<JudgeDeps, "prisma" | "endpointConfig">, runId: string) {
  let views = runViews.get(deps.prisma);
  if (!views) runViews.set(deps.prisma, (views = new Map()));
  const now = Date.now();
  let view = views.get(runId);
  if (!view) {
    for (const [id, old] of views) if (now - old.usedAt > 10 * 60_000) views.delete(id);
    views.set(
      runId,
      (view = {
        usedAt: now,
        status: { at: 0, cancelled: false, reading: null },
        budgeted: null,
        endpoints: new Map(),
      }),
    );
  }
  view.usedAt = now;
  const v = view;
  return {
    saw(status: string) {
      v.status.at = Date.now();
      // Not sticky: a run stopped by its budget is judged again once its budget is raised (lib/judge/runs/run-budget.ts).
      v.status.cancelled = status === "cancelled";
    },
    lookAgain() {
      v.status.at = 0;
    },
    async cancelled(): Promise<boolean> {
      if (v.status.cancelled || Date.now() - v.status.at < RUN_STATUS_MAX_AGE_MS) return v.status.cancelled;
      v.status.reading ??= deps.prisma.judgeRun
        .findUnique({ where: { id: runId }, select: { id: true, status: true, budgetUsd: true, committedUsd: true } })
        .then(async (run) => {
          // A run whose spend has reached its budget stops here, as the next of its steps would start.
          const stopped = run ? await stopWhenOverBudget(deps.prisma, run) : false;
          v.status.at = Date.now();
          v.status.cancelled = stopped || run?.status === "cancelled";
          return v.status.cancelled;
        })
        .finally(() => (v.status.reading = null));
      return v.status.reading;
    },
    /** Whether the run's calls reserve their cost against a budget before they are sent (lib/judge/runs/run-budget.ts). */
    budgeted(): Promise<boolean> {
      v.budgeted ??= deps.prisma.judgeRun
        .findUnique({ where: { id: runId }, select: { budgetUsd: true } })
        .then((run) => run !== null && run.budgetUsd !== null);
      v.budgeted.catch(() => (v.budgeted = null));
      return v.budgeted;
    },
    /** The run's endpoint, or another endpoint of its project that a step calls. */
    endpoint(endpointId?: string): Promise<EndpointConfig> {
      const key = endpointId ?? "";
      let entry = v.endpoints.get(key);
      if (!entry || Date.now() - entry.at >= ENDPOINT_MAX_AGE_MS) {
        const fresh = { at: Date.now(), config: deps.endpointConfig(runId, endpointId) };
        v.endpoints.set(key, (entry = fresh));
        fresh.config.catch(() => {
          if (v.endpoints.get(key) === fresh) v.endpoints.delete(key);
        });
      }
      return entry.config;
    },
  };
}

/** A cancelled run's video: its steps not finished and the video itself end cancelled. */
export async function cancelPending(prisma: PrismaClient, runId: string, videoId: string) {
  await prisma.stepResult.updateMany({
    where: { runId, videoId, status: { in: ["pending", "running"] } },
    data: { status: "cancelled", finishedAt: new Date() },
  });
  await prisma.runVideo.updateMany({
    where: { runId, videoId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled" },
  });
}
