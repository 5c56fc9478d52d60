// Keeps `npm start`'s judge workers running: a worker that exits is started again after a pause that doubles with
// each exit, and only a worker that keeps exiting stops everything. A worker crash (an out-of-memory kill, a bug hit
// by one video) used to take the web server and the embedded PostgreSQL down with it, while the jobs it held were
// safe to resume on a fresh worker anyway (their heartbeats lapse and pg-boss hands them out again).
import type { ChildProcess } from "node:child_process";
import { z } from "zod";

export interface RestartPolicy {
  /** The pause before the first restart; each further exit within the window doubles it, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** Exits counted together: those older than this are forgotten. */
  windowMs: number;
  /** Restarts allowed within the window; the exit after them stops everything. */
  maxRestarts: number;
}

export type RestartDecision =
  { restart: true; delayMs: number; exitsInWindow: number } | { restart: false; exitsInWindow: number };

/** Decides, from when a process exited before, whether to start it again and after how long. Time comes from the caller. */
export class RestartTracker {
  private exits: number[] = [];

  constructor(private readonly policy: RestartPolicy) {}

  exited(now: number): RestartDecision {
    this.exits = this.exits.filter((at) => now - at < this.policy.windowMs);
    this.exits.push(now);
    const exitsInWindow = this.exits.length;
    if (exitsInWindow > this.policy.maxRestarts) return { restart: false, exitsInWindow };
    const delayMs = Math.min(this.policy.initialDelayMs * 2 ** (exitsInWindow - 1), this.policy.maxDelayMs);
    return { restart: true, delayMs, exitsInWindow };
  }
}

const wholeNumber = (min: number) => z.coerce.number().int().min(min).max(1_000_000);

/**
 * WORKER_RESTART_LIMIT (default 5, 0: never restart) restarts within WORKER_RESTART_WINDOW_SECONDS (default 300),
 * the first after 1 s, then 2, 4, … up to 30 s. A malformed value is refused with its name: `npm start` fails at once.
 */
export function restartPolicyFromEnv(env: Record<string, string | undefined> = process.env): RestartPolicy {
  const read = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const parsed = wholeNumber(min).safeParse(raw);
    if (!parsed.success) throw new Error(`${name} must be a whole number of at least ${min} (it is "${raw}").`);
    return parsed.data;
  };
  return {
    initialDelayMs: 1000,
    maxDelayMs: 30_000,
    maxRestarts: read("WORKER_RESTART_LIMIT", 5, 0),
    windowMs: read("WORKER_RESTART_WINDOW_SECONDS", 300, 1) * 1000,
  };
}

export interface SupervisorOptions {
  /** Starts the process (again); called at once and for each restart. */
  start(): ChildProcess;
  policy: RestartPolicy;
  log(line: string): void;
  /** True once everything is being stopped: an exit then is expected, and nothing is restarted. */
  stopping(): boolean;
  /** The process keeps exiting: stop everything, naming it. */
  giveUp(failure: string): void;
  now?(): number;
  sleep?(ms: number): Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs one named process and starts it again when it exits, as `options.policy` allows. Returns the first process. */
export function supervise(name: string, options: SupervisorOptions): ChildProcess {
  const tracker = new RestartTracker(options.policy);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const run = (): ChildProcess => {
    const child = options.start();
    child.once("exit", (code, signal) => {
      if (options.stopping()) return;
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      const decision = tracker.exited(now());
      const window = `${Math.round(options.policy.windowMs / 1000)} s`;
      if (!decision.restart) {
        options.giveUp(
          `${name} keeps failing: it exited ${decision.exitsInWindow} times within ${window} (last: ${how}); see its output above`,
        );
        return;
      }
      options.log(
        `${name} exited (${how}); restarting it in ${formatSeconds(decision.delayMs)} (restart ${decision.exitsInWindow} of at most ${options.policy.maxRestarts} within ${window})`,
      );
      void sleep(decision.delayMs).then(() => {
        if (options.stopping()) return;
        const next = run();
        options.log(`${name} restarted (pid ${next.pid})`);
      });
    });
    return child;
  };
  return run();
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
