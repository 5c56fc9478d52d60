/** What each compared run cost and took: its calls' spend, tokens, bytes and latency, and its start to finish. */
import type { PrismaClient } from "../generated/prisma/client";

export interface RunCost {
  /** Calls made (answered, failed or lost), repairs included; `cached` of them answered from the response cache. */
  calls: number;
  cached: number;
  costUsd: number;
  promptTokens: number;
  completionTokens: number;
  bytesSent: number;
  /** Mean latency of the calls that went out (not cached); null when none did. */
  meanLatencyMs: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Seconds from start to finish; null until the run has finished. */
  durationS: number | null;
}

/** Per run, its calls summed in one query. */
export async function comparedRunCosts(
  prisma: PrismaClient,
  runs: readonly { id: string; startedAt?: Date | null; finishedAt?: Date | null }[],
): Promise<Map<string, RunCost>> {
  const ids = runs.map((r) => r.id);
  const [sums, times] = await Promise.all([
    prisma.$queryRaw<
      {
        runId: string;
        calls: bigint;
        cached: bigint;
        costUsd: number | null;
        promptTokens: bigint | null;
        completionTokens: bigint | null;
        bytesSent: bigint | null;
        meanLatencyMs: number | null;
      }[]
    >`
      SELECT c."runId", count(*) AS "calls", count(*) FILTER (WHERE c."cached") AS "cached",
        sum(c."costUsd") AS "costUsd", sum(c."promptTokens") AS "promptTokens",
        sum(c."completionTokens") AS "completionTokens", sum(c."bytesSent") AS "bytesSent",
        avg(c."latencyMs") FILTER (WHERE NOT c."cached") AS "meanLatencyMs"
      FROM llm_call c WHERE c."runId" = ANY(${ids}::text[])
      GROUP BY c."runId"`,
    prisma.judgeRun.findMany({ where: { id: { in: ids } }, select: { id: true, startedAt: true, finishedAt: true } }),
  ]);
  const byRun = new Map(sums.map((s) => [s.runId, s]));
  const timeOf = new Map(times.map((t) => [t.id, t]));
  return new Map(
    ids.map((id) => {
      const s = byRun.get(id);
      const t = timeOf.get(id);
      const startedAt = t?.startedAt ?? null;
      const finishedAt = t?.finishedAt ?? null;
      return [
        id,
        {
          calls: Number(s?.calls ?? 0),
          cached: Number(s?.cached ?? 0),
          costUsd: Number(s?.costUsd ?? 0),
          promptTokens: Number(s?.promptTokens ?? 0),
          completionTokens: Number(s?.completionTokens ?? 0),
          bytesSent: Number(s?.bytesSent ?? 0),
          meanLatencyMs: s?.meanLatencyMs === null || s?.meanLatencyMs === undefined ? null : Number(s.meanLatencyMs),
          startedAt: startedAt?.toISOString() ?? null,
          finishedAt: finishedAt?.toISOString() ?? null,
          durationS: startedAt && finishedAt ? (finishedAt.getTime() - startedAt.getTime()) / 1000 : null,
        },
      ];
    }),
  );
}
