// The child processes `npm start` and `npm run demo` run, stopped together whatever ends the parent: a failure,
// Ctrl-C, SIGTERM, an exception nobody caught. Without this a crash left the web server, the worker and
// PostgreSQL running with parent pid 1, holding their ports.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

interface Named {
  name: string;
  child: ChildProcess;
  /** Its own process group (detached): stopped with kill(-pid), which reaches anything it started. */
  group: boolean;
}

export class Children {
  private readonly running: Named[] = [];

  constructor() {
    // Last resort, when the parent exits with children still up (process.exit from elsewhere): nothing
    // asynchronous runs in an exit handler, so they are killed outright.
    process.once("exit", () => {
      for (const { child, group } of this.running) if (alive(child)) signal(child, group, "SIGKILL");
    });
  }

  /** `group`: start it in its own process group, so stopping it stops its own children too. */
  spawn(name: string, command: string, args: string[], options: SpawnOptions & { group?: boolean } = {}): ChildProcess {
    const { group = false, ...spawnOptions } = options;
    const child = spawn(command, args, { ...spawnOptions, detached: group });
    this.running.push({ name, child, group });
    return child;
  }

  /** Children still running, by name. */
  alive(): string[] {
    return this.running.filter(({ child }) => alive(child)).map(({ name }) => name);
  }

  /**
   * SIGTERM to each child still running (the last started first), then SIGKILL to those still up after
   * `graceMs`. Resolves when every one has exited.
   */
  async stopAll(options: { graceMs?: number; log?: (line: string) => void } = {}): Promise<void> {
    const graceMs = options.graceMs ?? 15_000;
    const targets = [...this.running].reverse().filter(({ child }) => alive(child));
    for (const { child, group } of targets) signal(child, group, "SIGTERM");
    await Promise.all(
      targets.map(async ({ name, child, group }) => {
        const exited = new Promise<void>((resolve) => {
          if (!alive(child)) resolve();
          else child.once("exit", () => resolve());
        });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
        if ((await Promise.race([exited, late])) === "late") {
          options.log?.(`${name} did not stop within ${Math.round(graceMs / 1000)} s; killing it`);
          signal(child, group, "SIGKILL");
          await exited;
        }
        clearTimeout(timer);
        // A group may hold processes that outlived its leader: the group gets a last SIGKILL either way.
        if (group) signal(child, group, "SIGKILL");
      }),
    );
  }
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

function signal(child: ChildProcess, group: boolean, name: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (group) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // already gone
  }
}

/** One line for an error: its message, and the cause's (fetch puts the socket error there). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/**
 * The one way `npm start` and `npm run demo` end: once, on a failure, SIGINT/SIGTERM or an uncaught error, it
 * names what failed (`<prefix> failed: <step>: <reason>`), runs `stop` (which stops everything the script
 * started), says so, and exits. `stopping` tells waiting loops and exit handlers that it has begun.
 */
export class Shutdown {
  stopping = false;

  constructor(
    private readonly prefix: string,
    private readonly step: () => string,
    private readonly stop: () => Promise<void>,
  ) {
    process.on("SIGINT", () => void this.run(0));
    process.on("SIGTERM", () => void this.run(0));
    process.on("uncaughtException", (error) => this.failWith(error));
    process.on("unhandledRejection", (error) => this.failWith(error));
  }

  async run(code: number, failure?: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (failure) console.error(`${this.prefix} failed: ${failure}`);
    await this.stop();
    if (failure) console.error(`${this.prefix} everything it started is stopped.`);
    process.exit(code);
  }

  /** Fails with the step under way and the error's description. */
  failWith(error: unknown): void {
    void this.run(1, `${this.step()}: ${describeError(error)}`);
  }
}
