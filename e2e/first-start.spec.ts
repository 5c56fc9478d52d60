// `npm run demo` and `npm start` as a new user runs them (the real scripts, on their own embedded PostgreSQL
// and ports): a failure stops every process they started and frees every port. Plus the build's traces.
// No browser: these drive the scripts. The build is current here (the global setup made it).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

test.describe.configure({ timeout: 8 * 60_000 });

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Whether something still listens on `port` (127.0.0.1). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Every process whose environment has DATA_DIR=dataDir (the script, the app, the worker, PostgreSQL), by pid. */
function processesOf(dataDir: string): Map<number, string> {
  const found = new Map<number, string>();
  const marker = `DATA_DIR=${dataDir}\0`;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, "latin1").includes(marker)) continue;
      found.set(Number(entry), fs.readFileSync(`/proc/${entry}/cmdline`, "latin1").split("\0").join(" ").trim());
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** The scripts' environment: their own data folder and ports, none of the e2e app's database or storage. */
function scriptEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", ...extra };
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_URL|E2E_|STORAGE_|ADMIN_|APP_URL|APP_SECRET|S3_|AWS_)/.test(name)) delete env[name];
  }
  return env;
}

function run(script: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: path.resolve("."),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Records every process of `dataDir` seen while `until` is pending. */
async function watch(
  dataDir: string,
  until: Promise<unknown>,
  onTick?: (seen: Map<number, string>) => void,
): Promise<Map<number, string>> {
  const seen = new Map<number, string>();
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    for (const [pid, command] of processesOf(dataDir)) seen.set(pid, command);
    onTick?.(seen);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return seen;
}

async function expectAllGone(dataDir: string, ports: number[]) {
  // The parent has exited; the last of its children get a moment to be reaped.
  await expect.poll(() => [...processesOf(dataDir).values()], { timeout: 10_000 }).toEqual([]);
  for (const port of ports) expect(await listening(port), `port ${port} is still held`).toBe(false);
}

test("npm run demo: a failure in the middle of seeding stops the app, the worker, PostgreSQL and the stub, and says what failed", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-demo-cleanup-"));
  const [port, pgPort, stubPort] = [await freePort(), await freePort(), await freePort()];
  const demo = run(
    "scripts/demo.ts",
    scriptEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      STUB_LLM_PORT: String(stubPort),
      FRAMEJURY_DEMO_FAIL_AFTER_CLIPS: "1",
    }),
  );
  try {
    const seen = await watch(dataDir, demo.exited);
    const code = await demo.exited;
    const output = demo.output();
    expect(output).toContain("[demo] demo clip ");
    expect(code, output.slice(-3000)).toBe(1);
    expect(output).toMatch(/\[demo\] failed: seeding the demo project: stopping after 1 clip/);
    expect(output).toContain("[demo] everything it started is stopped.");
    // Everything was up when seeding failed: the app's script, the web server, the worker and PostgreSQL.
    const commands = [...seen.values()].join("\n");
    expect(commands).toMatch(/scripts\/start\.ts/);
    expect(commands).toMatch(/next-server|next\/dist\/bin\/next start/);
    expect(commands).toMatch(/scripts\/worker\.ts/);
    expect(commands).toMatch(/bin\/postgres/);
    await expectAllGone(dataDir, [port, pgPort, stubPort]);
  } finally {
    demo.child.kill("SIGKILL");
    for (const pid of processesOf(dataDir).keys()) process.kill(pid, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("npm start: when the web server dies, the worker and the embedded PostgreSQL are stopped too, and it says so", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-start-cleanup-"));
  const [port, pgPort] = [await freePort(), await freePort()];
  const start = run(
    "scripts/start.ts",
    scriptEnv({ DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort) }),
  );
  try {
    await expect
      .poll(() => start.output(), { timeout: 5 * 60_000, intervals: [500] })
      .toContain("[framejury] FrameJury is ready at");
    expect(start.output()).toContain(
      `FrameJury is ready at http://localhost:${port} — open it to create the admin account`,
    );
    const web = [...processesOf(dataDir)].find(([, command]) =>
      /next-server|next\/dist\/bin\/next start/.test(command),
    );
    expect(web, [...processesOf(dataDir).values()].join("\n")).toBeDefined();
    process.kill(web![0], "SIGKILL");
    const code = await start.exited;
    expect(code).toBe(1);
    expect(start.output()).toMatch(/\[framejury\] failed: the web server exited/);
    await expectAllGone(dataDir, [port, pgPort]);
  } finally {
    start.child.kill("SIGKILL");
    for (const pid of processesOf(dataDir).keys()) process.kill(pid, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the production build traces no project sources (no dynamic file access makes Next.js trace the whole project)", () => {
  const traces: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".nft.json")) traces.push(full);
    }
  };
  walk(path.resolve(".next/server"));
  expect(traces.length).toBeGreaterThan(10);
  const root = path.resolve(".");
  const sources = new Set<string>();
  for (const trace of traces) {
    for (const file of (JSON.parse(fs.readFileSync(trace, "utf8")) as { files: string[] }).files) {
      const relative = path.relative(root, path.resolve(path.dirname(trace), file));
      if (/^(app|components|e2e|scripts)\//.test(relative)) sources.add(relative);
    }
  }
  expect([...sources].slice(0, 20)).toEqual([]);
});
