import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Its JSON log lines so far. */
  lines(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * The app's worker entry (`npm run worker`) as a process of its own: tsx as a loader, not its CLI,
 * which would run the worker in a child of its own.
 */
export function startWorkerProcess(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    lines: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  what: string,
  context = () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check().catch(() => null);
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}.${context() ? `\n${context()}` : ""}`);
}
