import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";

/**
 * Real judge worker processes (`scripts/worker.ts`) on the test's database, storage and secret, for
 * tests of what only separate processes show: crashes, limits shared between workers.
 */
export class WorkerProcesses {
  readonly all: ChildProcess[] = [];
  /** Each process's database and the application name its sessions carry (PGAPPNAME, which node-postgres reads). */
  private readonly sessions = new Map<ChildProcess, { url: string; name: string }>();

  /** Starts one; `ready` resolves once it takes jobs. Its stderr goes to the test's, prefixed. */
  start(env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void> } {
    // One process (tsx as a loader, not its CLI, which would run the worker in a child of its own).
    const name = `framejury-test-worker-${randomBytes(4).toString("hex")}`;
    // The readiness line is logged at info: show it whatever level the tests run at.
    const childEnv = { ...process.env, WORKER_CONCURRENCY: "4", LOG_LEVEL: "info", PGAPPNAME: name, ...env };
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = env.DATABASE_URL ?? process.env.DATABASE_URL;
    if (url) this.sessions.set(child, { url, name: childEnv.PGAPPNAME });
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[worker ${child.pid}] ${chunk.toString()}`));
    const ready = new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("judging with up to")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`worker ${child.pid} exited (${code}) before taking jobs`)));
    });
    ready.catch(() => {}); // a test that never awaits it must not see an unhandled rejection
    this.all.push(child);
    return { child, ready };
  }

  /**
   * SIGKILL, as a crash: no clean-up of any kind. Resolves once the process is gone, and so are its database
   * sessions: a COMMIT it sent just before the kill still completes in PostgreSQL after the process exits, and what
   * the test reads next must include it.
   */
  async kill(child: ChildProcess): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    const sessions = this.sessions.get(child);
    if (!sessions) return;
    const client = new pg.Client({ connectionString: sessions.url });
    // A database nothing answers on (a test of a worker without one) holds no session of it.
    if (
      !(await client.connect().then(
        () => true,
        () => false,
      ))
    )
      return;
    try {
      await waitFor(
        async () => {
          const { rows } = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
            [sessions.name],
          );
          return rows[0]!.n === 0;
        },
        60_000,
        `the database sessions of worker ${child.pid} to end`,
      );
    } finally {
      await client.end();
    }
  }

  async killAll(): Promise<void> {
    await Promise.all(this.all.map((child) => this.kill(child)));
  }
}

export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
