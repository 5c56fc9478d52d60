import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../testkit/testing/worker-process";
import { WORKER_PROCESS_V8_FLAGS } from "../../lib/ops/worker-process-flags";
import { Children } from "./children";
import { RestartTracker, restartPolicyFromEnv, supervise, type RestartPolicy } from "./supervisor";

const policy: RestartPolicy = { initialDelayMs: 1000, maxDelayMs: 8000, windowMs: 60_000, maxRestarts: 5 };

describe("the restart tracker (a fake clock)", () => {
  it("doubles the pause with each exit within the window, up to the maximum", () => {
    const tracker = new RestartTracker(policy);
    const delays = [0, 1, 2, 3, 4].map((i) => tracker.exited(i * 1000));
    expect(delays.map((d) => d.restart && d.delayMs)).toEqual([1000, 2000, 4000, 8000, 8000]);
  });

  it("gives up on the exit after the allowed restarts within the window", () => {
    const tracker = new RestartTracker(policy);
    for (let i = 0; i < 5; i++) expect(tracker.exited(i * 10_000).restart).toBe(true);
    expect(tracker.exited(50_000)).toEqual({ restart: false, exitsInWindow: 6 });
  });

  it("forgets exits older than the window, so a worker that ran a while starts again at the first pause", () => {
    const tracker = new RestartTracker(policy);
    for (let i = 0; i < 5; i++) tracker.exited(i * 1000);
    expect(tracker.exited(4000 + 60_000)).toEqual({ restart: true, delayMs: 1000, exitsInWindow: 1 });
  });

  it("reads WORKER_RESTART_LIMIT and WORKER_RESTART_WINDOW_SECONDS, and refuses a malformed one by name", () => {
    expect(restartPolicyFromEnv({})).toMatchObject({ maxRestarts: 5, windowMs: 300_000, initialDelayMs: 1000 });
    expect(restartPolicyFromEnv({ WORKER_RESTART_LIMIT: "0", WORKER_RESTART_WINDOW_SECONDS: "60" })).toMatchObject({
      maxRestarts: 0,
      windowMs: 60_000,
    });
    expect(() => restartPolicyFromEnv({ WORKER_RESTART_LIMIT: "many" })).toThrow(/WORKER_RESTART_LIMIT/);
    expect(() => restartPolicyFromEnv({ WORKER_RESTART_WINDOW_SECONDS: "0" })).toThrow(/WORKER_RESTART_WINDOW_SECONDS/);
  });
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  started.length = 0;
});

describe("supervising real processes", () => {
  it("starts the judge worker again after it is killed, logging the pause", { timeout: 120_000 }, async () => {
    const children = new Children();
    let output = "";
    const lines: string[] = [];
    const pauses: number[] = [];
    let stopping = false;
    const first = supervise("the judge worker", {
      start: () => {
        const child = children.spawn(
          "the judge worker",
          process.execPath,
          [...WORKER_PROCESS_V8_FLAGS, "--import", "tsx", path.resolve("scripts/worker.ts")],
          {
            env: { ...process.env, LOG_LEVEL: "info" },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
        started.push(child);
        return child;
      },
      policy,
      log: (line) => lines.push(line),
      stopping: () => stopping,
      giveUp: (failure) => lines.push(`gave up: ${failure}`),
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    const judging = () => output.split("judging with up to").length - 1;
    await waitFor(
      async () => judging() >= 1,
      90_000,
      "the worker to start",
      () => output,
    );
    first.kill("SIGKILL");
    await waitFor(
      async () => judging() >= 2,
      90_000,
      "the worker to start again",
      () => `${lines.join("\n")}\n${output}`,
    );

    expect(lines[0]).toBe(
      "the judge worker exited (killed by SIGKILL); restarting it in 1 s (restart 1 of at most 5 within 60 s)",
    );
    expect(pauses).toEqual([1000]);
    const second = started[1]!;
    expect(lines[1]).toBe(`the judge worker restarted (pid ${second.pid})`);
    expect(second.pid).not.toBe(first.pid);
    expect(children.alive()).toEqual(["the judge worker"]);
    stopping = true;
    await children.stopAll({ graceMs: 10_000 });
    expect(started).toHaveLength(2);
  });

  it("stops restarting a worker that keeps failing within the window, and says which", async () => {
    const lines: string[] = [];
    const failures: string[] = [];
    const pauses: number[] = [];
    let clock = 0;
    await new Promise<void>((resolve) => {
      supervise("judge worker 2", {
        start: () => {
          const child = spawn(process.execPath, ["-e", "process.exit(3)"]);
          started.push(child);
          return child;
        },
        policy: { ...policy, maxRestarts: 2 },
        log: (line) => lines.push(line),
        stopping: () => false,
        giveUp: (failure) => {
          failures.push(failure);
          resolve();
        },
        now: () => (clock += 5000),
        sleep: async (ms) => {
          pauses.push(ms);
        },
      });
    });
    expect(started).toHaveLength(3);
    expect(pauses).toEqual([1000, 2000]);
    expect(lines.filter((line) => line.includes("restarting it in"))).toEqual([
      "judge worker 2 exited (exit code 3); restarting it in 1 s (restart 1 of at most 2 within 60 s)",
      "judge worker 2 exited (exit code 3); restarting it in 2 s (restart 2 of at most 2 within 60 s)",
    ]);
    expect(failures).toEqual([
      "judge worker 2 keeps failing: it exited 3 times within 60 s (last: exit code 3); see its output above",
    ]);
  });

  it("restarts nothing once everything is stopping", async () => {
    const lines: string[] = [];
    let stopping = false;
    const child = supervise("the judge worker", {
      start: () => {
        const next = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
        started.push(next);
        return next;
      },
      policy,
      log: (line) => lines.push(line),
      stopping: () => stopping,
      giveUp: (failure) => lines.push(failure),
      sleep: async () => {},
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    stopping = true;
    child.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(1);
    expect(lines).toEqual([]);
  });
});

describe("npm start's shutdown when a worker keeps failing", () => {
  it("prints 'failed:' naming the worker and stops the other processes it started", { timeout: 60_000 }, async () => {
    // The wiring of scripts/start.ts (Children, Shutdown, supervise) in a process of its own, with a web server that
    // sleeps and a worker that always exits.
    const script = `
      import { Children, Shutdown } from "./scripts/lib/children.ts";
      import { supervise } from "./scripts/lib/supervisor.ts";
      const children = new Children();
      const shutdown = new Shutdown("[framejury]", () => "running", () => children.stopAll({ graceMs: 5000 }));
      const web = children.spawn("the web server", process.execPath, ["-e", "setTimeout(() => {}, 600000)"]);
      console.log("web pid " + web.pid);
      supervise("the judge worker", {
        start: () => children.spawn("the judge worker", process.execPath, ["-e", "process.exit(7)"]),
        policy: { initialDelayMs: 10, maxDelayMs: 40, windowMs: 60000, maxRestarts: 3 },
        log: (line) => console.log("[framejury] " + line),
        stopping: () => shutdown.stopping,
        giveUp: (failure) => void shutdown.run(1, failure),
      });
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    expect(code, stderr).toBe(1);
    expect(stdout.match(/restarting it in/g)).toHaveLength(3);
    expect(stderr).toContain(
      "[framejury] failed: the judge worker keeps failing: it exited 4 times within 60 s (last: exit code 7)",
    );
    expect(stderr).toContain("[framejury] everything it started is stopped.");
    const webPid = Number(/web pid (\d+)/.exec(stdout)?.[1]);
    expect(webPid).toBeGreaterThan(0);
    expect(() => process.kill(webPid, 0)).toThrow();
  });
});
