/**
 * The job system: one pg-boss instance per process for every queue (judging, batch checks, alignment, deletions,
 * webhook deliveries). `jobBoss()` returns the process's instance, created and started on first use and stopped by
 * `stopJobs()`; each feature makes its queues on it with `queueOn` and sends or works through it.
 *
 * The instance is held in the process slot (lib/config/process-slot.ts) because Next.js loads several copies of a
 * server module (one per route bundle) and each copy would otherwise start its own pool. It is infrastructure (a pool
 * of connections to the app's own database), never project data.
 */
import type { ConstructorOptions, Db, PgBoss, Queue } from "pg-boss";
import { loggedClusterIdentity, type ClusterIdentity } from "../db/cluster-identity";
import { isConnectionLoss } from "../db/reconnecting-adapter";
import { rootLogger } from "../observability/logger";
import { heldByProcess, holdForProcess } from "../config/process-slot";

/** A queue's name and the pg-boss options its jobs inherit (retries, expiry, heartbeat). */
export interface QueueDefinition {
  name: string;
  options: Omit<Queue, "name">;
}

interface ProcessJobs {
  boss: Promise<PgBoss>;
  supervise: boolean;
}

const processJobs = () => heldByProcess<ProcessJobs>("jobs");

/**
 * Starts the process's instance. A worker calls it first, with supervision (pg-boss's maintenance: expiring jobs
 * whose heartbeat stopped, retrying them); the web process only sends, and gets an unsupervised one from `jobBoss`.
 */
export function startJobs(options: { connectionString: string; supervise: boolean }): Promise<PgBoss> {
  const current = processJobs();
  if (current) {
    if (current.supervise !== options.supervise)
      throw new Error("The process's job queue is already started with other settings.");
    return current.boss;
  }
  const boss = createBoss(options.connectionString, { supervise: options.supervise });
  holdForProcess<ProcessJobs>("jobs", { boss, supervise: options.supervise });
  // A start that failed (the database was down) is not kept: the next use tries again.
  boss.catch(() => {
    if (processJobs()?.boss === boss) holdForProcess("jobs", undefined);
  });
  return boss;
}

/** The process's instance: the one started, or one started now without supervision (the web process only sends). */
export function jobBoss(): Promise<PgBoss> {
  const current = processJobs();
  if (current) return current.boss;
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) return Promise.reject(new Error("DATABASE_URL is not set; the job queue needs it."));
  return startJobs({ connectionString, supervise: false });
}

/** Stops the process's instance (its workers hand back what they hold, `timeoutMs` at most). */
export async function stopJobs(options: { timeoutMs?: number } = {}): Promise<void> {
  const current = processJobs();
  if (!current) return;
  holdForProcess("jobs", undefined);
  const boss = await current.boss.catch(() => null);
  await boss?.stop({ graceful: true, timeout: options.timeoutMs ?? 10_000 });
}

/**
 * A pg-boss instance started on a database: the process's (through `startJobs`), or a test's or a tool's on a
 * database of its own. Loaded on first use, not with the module: most importers only send through a started one.
 */
export async function createBoss(connectionString: string, options: { supervise: boolean }): Promise<PgBoss> {
  const { PgBoss } = await import("pg-boss");
  // pg-boss hands its options to its node-postgres pool, whose onConnect checks each new connection reaches the same
  // cluster as the first (lib/db/cluster-identity.ts): after an outage, a server that took the port is refused.
  const settings: ConstructorOptions & { onConnect: ClusterIdentity["check"] } = {
    connectionString,
    supervise: options.supervise,
    schedule: false,
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
    onConnect: loggedClusterIdentity().check,
  };
  const boss = new PgBoss(settings);
  boss.on("error", queueErrorLogger());
  await boss.start();
  return boss;
}

/** The queues made on each instance, so that a feature's every send does not ask the database again. */
const madeQueues = new WeakMap<PgBoss, Map<string, Promise<void>>>();

/** Makes the queues on the instance (once per instance and queue); returns the instance. */
export async function queueOn(boss: PgBoss, ...queues: QueueDefinition[]): Promise<PgBoss> {
  let made = madeQueues.get(boss);
  if (!made) madeQueues.set(boss, (made = new Map()));
  for (const queue of queues) {
    let creating = made.get(queue.name);
    if (!creating) {
      const map = made;
      creating = boss.createQueue(queue.name, queue.options);
      map.set(queue.name, creating);
      creating.catch(() => map.delete(queue.name));
    }
    await creating;
  }
  return boss;
}

/** The process's instance with the queues made: what a feature sends through. */
export async function jobQueues(...queues: QueueDefinition[]): Promise<PgBoss> {
  return queueOn(await jobBoss(), ...queues);
}

/**
 * A Prisma transaction as pg-boss's `db` option: jobs sent through it are saved with the transaction's rows or not
 * at all (a delivery row and the job that sends it, say).
 */
export function transactionDb(tx: { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> }): Db {
  return {
    async executeSql(text, values = []) {
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) };
    },
  };
}

/**
 * pg-boss reports every failed poll and heartbeat, and a JobTaker every failed fetch: while PostgreSQL restarts
 * that is several a second. A lost connection is logged once per 30 s as a warning; anything else as an error
 * with its stack, saying what failed.
 */
export function queueErrorLogger() {
  let lastConnectionWarning = 0;
  return (error: unknown, what = "pg-boss error") => {
    if (isConnectionLoss(error)) {
      if (Date.now() - lastConnectionWarning < 30_000) return;
      lastConnectionWarning = Date.now();
      rootLogger().warn(
        { error: error instanceof Error ? error.message : String(error) },
        "lost the job queue's database connection; retrying on its own",
      );
      return;
    }
    rootLogger().error({ err: error }, what);
  };
}
