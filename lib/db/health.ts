import pg from "pg";
import { z } from "zod";

export type DatabaseHealth =
  { db: "ok"; latencyMs: number } | { db: "slow"; latencyMs: number; answered: boolean } | { db: "down" };

export interface HealthThresholds {
  /** An answer slower than this (connecting included) is `slow`. */
  slowMs: number;
  /** How long to wait for an answer; a server that took the connection but has not answered by then is `slow`, not `down`. */
  timeoutMs: number;
}

const milliseconds = z.coerce.number().int().min(1).max(600_000);

/**
 * HEALTH_DB_SLOW_MS (default 1000) and HEALTH_DB_TIMEOUT_MS (default 5000, at least the slow threshold). A value
 * that is not a whole number of milliseconds falls back to its default, so a typo never takes health checks down.
 */
export function healthThresholdsFromEnv(env: Record<string, string | undefined> = process.env): HealthThresholds {
  const read = (name: string, fallback: number) => {
    const parsed = milliseconds.safeParse(env[name]);
    return env[name] !== undefined && env[name] !== "" && parsed.success ? parsed.data : fallback;
  };
  const slowMs = read("HEALTH_DB_SLOW_MS", 1000);
  return { slowMs, timeoutMs: Math.max(slowMs, read("HEALTH_DB_TIMEOUT_MS", 5000)) };
}

/**
 * How the database answers a trivial query, and how fast. `down`: no connection (refused, unreachable, refused
 * credentials, or no connection within the timeout). A server that accepted the connection is up: when it answers
 * later than `slowMs`, or has not answered by `timeoutMs`, it is `slow`, with the time waited; a busy database is
 * not a dead one, and a load balancer that took the web server out for it would only add to the trouble.
 */
export async function checkDatabase(
  connectionString: string | undefined,
  thresholds: HealthThresholds,
): Promise<DatabaseHealth> {
  if (!connectionString) return { db: "down" };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: thresholds.timeoutMs });
  // A server that goes away mid-check emits an error on the client; the check reports it through its promises.
  client.on("error", () => {});
  try {
    try {
      await client.connect();
    } catch {
      return { db: "down" };
    }
    const left = Math.max(1, thresholds.timeoutMs - elapsed());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), left)));
    const answer = client.query("SELECT 1").then(
      () => "answered" as const,
      () => "failed" as const,
    );
    const outcome = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
    if (outcome === "failed") return { db: "down" };
    const latencyMs = elapsed();
    if (outcome === "late") return { db: "slow", latencyMs, answered: false };
    return latencyMs > thresholds.slowMs ? { db: "slow", latencyMs, answered: true } : { db: "ok", latencyMs };
  } finally {
    // Not awaited: a server that has not answered may not answer the goodbye either.
    void client.end().catch(() => {});
  }
}
