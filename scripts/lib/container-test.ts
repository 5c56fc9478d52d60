// Helpers of `npm run test:container` (scripts/test-container.ts): Docker and Compose commands, waiting, and the
// FrameJury HTTP API as the test uses it (a session to make an API key, then the key).
import { spawn, spawnSync, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Debian's docker.io client (BuildKit built in) when present; a newer CLI without buildx cannot use BuildKit. */
export const DOCKER = fs.existsSync("/usr/bin/docker") ? "/usr/bin/docker" : "docker";

export const log = (line: string) => console.log(`[test:container] ${line}`);

export class CheckFailed extends Error {}
/** Thrown by a waitFor probe when what it waits for can no longer happen: the wait ends at once. */
export class WaitInVain extends CheckFailed {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Runs a command, throwing with its output when it fails; returns its stdout. */
export function run(command: string, args: string[], options: SpawnSyncOptions & { quiet?: boolean } = {}): string {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 512 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const output = `${String(result.stdout ?? "").slice(-4000)}${String(result.stderr ?? "").slice(-4000)}`;
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status}:\n${output}`);
  }
  return String(result.stdout ?? "");
}

/** Runs a command with its output on this terminal (long builds); throws when it fails. */
export async function runLoud(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const child = spawn(command, args, { stdio: "inherit", env });
  const status = await new Promise<number | string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? signal ?? 1));
  });
  if (status !== 0) throw new Error(`${command} ${args.slice(0, 3).join(" ")}… exited with ${status}`);
}

export const docker = (args: string[], options: SpawnSyncOptions = {}) => run(DOCKER, args, options);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined> | T | null | undefined,
  timeoutMs: number,
  intervalMs = 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined && value !== false) return value;
    } catch (error) {
      // What can no longer come (a container that exited) ends the wait; other errors are tried again until the deadline.
      if (error instanceof WaitInVain) throw error;
      lastError = error;
    }
    await sleep(intervalMs);
  }
  throw new CheckFailed(
    `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ""}`,
  );
}

/** Starts dockerd (no bridge, no iptables: containers use the host's network) unless one answers already. */
export async function ensureDockerDaemon(): Promise<{ stop(): Promise<void> }> {
  const answers = () => spawnSync(DOCKER, ["info"], { stdio: "ignore" }).status === 0;
  if (answers()) return { stop: async () => {} };
  if (!fs.existsSync("/usr/sbin/dockerd"))
    throw new CheckFailed(
      "no Docker daemon answers and dockerd is not installed: apt-get update && apt-get install -y docker.io docker-compose debootstrap",
    );
  log("starting dockerd --bridge=none --iptables=false (log: /tmp/framejury-container-test-dockerd.log)");
  const out = fs.openSync("/tmp/framejury-container-test-dockerd.log", "a");
  const daemon = spawn("/usr/sbin/dockerd", ["--bridge=none", "--iptables=false"], {
    detached: true,
    stdio: ["ignore", out, out],
  });
  daemon.unref();
  await waitFor("dockerd to answer", () => answers(), 60_000, 500);
  return {
    stop: async () => {
      if (daemon.pid === undefined) return;
      process.kill(daemon.pid, "SIGTERM");
      await waitFor("dockerd to stop", () => !answers(), 60_000, 500).catch(() => {});
    },
  };
}

export interface Compose {
  /** docker-compose with the project's files and name. */
  (args: string[], options?: { quiet?: boolean }): string;
  containers(service: string): string[];
  health(container: string): string;
}

export function composeFor(files: string[], project: string, env: NodeJS.ProcessEnv): Compose {
  const base = [
    ...files.flatMap((file) => ["-f", path.resolve(file)]),
    "--project-directory",
    process.cwd(),
    "-p",
    project,
  ];
  const compose = ((args: string[]) => run("docker-compose", [...base, ...args], { env })) as Compose;
  compose.containers = (service) =>
    run("docker-compose", [...base, "ps", "-q", service], { env })
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  compose.health = (container) =>
    docker([
      "inspect",
      "--format",
      "{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}",
      container,
    ]).trim();
  return compose;
}

function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : "";
  return `${String(error)}${cause}`;
}

/** The app's HTTP API with an API key, as a script of a lab would use it. */
export class Api {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const request = () =>
      fetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A kept-alive connection the server closed while idle fails a request that was never sent: once again, on a
    // new one. Any other failure names its cause.
    const response = await request().catch(async (error: unknown) => {
      log(`${method} ${path} failed (${describeFailure(error)}); once more`);
      await sleep(1000);
      return request().catch((again: unknown) => {
        throw new CheckFailed(`${method} ${path} failed: ${describeFailure(again)}`);
      });
    });
    const text = await response.text();
    if (!response.ok) throw new CheckFailed(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }
}

/** Signs in with email and password (a session cookie) and makes an API key with it. */
export async function apiKeyFor(base: string, email: string, password: string): Promise<Api> {
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  check(signIn.ok, `signing in as ${email} answered ${signIn.status}: ${(await signIn.text()).slice(0, 300)}`);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
  check(cookie.includes("="), "signing in set no session cookie");
  const made = await fetch(`${base}/api/v1/me/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, cookie },
    body: JSON.stringify({ name: `container test ${Date.now()}` }),
  });
  const text = await made.text();
  check(made.status === 201, `making an API key answered ${made.status}: ${text.slice(0, 300)}`);
  return new Api(base, (JSON.parse(text) as { key: string }).key);
}

export interface RunState {
  id: string;
  status: string;
  steps?: { done?: number; total?: number; failed?: number; parse_failed?: number };
}
