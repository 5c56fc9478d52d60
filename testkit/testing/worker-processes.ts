import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * Real judge worker processes (`scripts/worker.ts`) on the test's database, storage and secret, for
 * tests of what only separate processes show: crashes, limits shared between workers.
 */
export class WorkerProcesses {
  readonly all: ChildProcess[] = [];

  /** Starts one; `ready` resolves once it takes jobs. Its stderr goes to the test's, prefixed. */
  start(env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void> } {
    // One process (tsx as a loader, not its CLI, which would run the worker in a child of its own).
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
      // The readiness line is logged at info: show it whatever level the tests run at.
      env: { ...process.env, WORKER_CONCURRENCY: "4", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
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

  /** SIGKILL, as a crash: no clean-up of any kind. Resolves once the process is gone. */
  async kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
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
