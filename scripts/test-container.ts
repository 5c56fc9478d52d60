// `npm run test:container`: FrameJury the way labs deploy it, on this machine. Slow (a full image build), so it is
// outside `npm test` and CI. It builds the image (Dockerfile) on a local stand-in for node:20-bookworm-slim
// (deploy/test/make-base.sh: debootstrap and this machine's Node, since no registry image can be pulled), inspects it
// (non-root, no test tools, no .data, no registry settings, no secrets), then brings up compose.yaml with
// deploy/test/compose.test.yaml (host networking; PostgreSQL from Debian's package): web, two workers, PostgreSQL.
// It signs in as the admin from the environment, imports a real clip with `npm run import` against the container,
// judges it with the stub LLM, stops a worker mid-run and checks the run finishes on the other, takes everything
// down and up again and checks the data is kept, checks the app refuses a CHANGEME secret, then brings up the `s3`
// and `extract` profiles (a MinIO stand-in, deploy/test/minio.Dockerfile) and the `demo` profile
// (scripts/lib/container-profiles.ts). It removes its containers, images and volumes at the end, and prints the
// image size, the build time, the time from `up` to healthy and its own duration.
// It builds what is committed (`git archive HEAD`), so a file left out of git or an uncommitted edit cannot make
// the image pass here and fail on a clean clone; CONTAINER_TEST_WORKTREE=1 builds the working tree instead.
// CONTAINER_TEST_IMAGE=<tag> tests an image built before instead of building one; CONTAINER_TEST_KEEP=1 keeps
// the images it made (docs/testing.md).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import {
  apiKeyFor,
  check,
  composeFor,
  docker,
  DOCKER,
  ensureDockerDaemon,
  log,
  run,
  runLoud,
  sleep,
  waitFor,
  type Api,
  type Compose,
  type RunState,
  WaitInVain,
} from "./lib/container-test";
import { inspectImage } from "./lib/container-image-checks";
import { checkDemo, checkS3AndExtract, s3Settings } from "./lib/container-profiles";

const WEB_PORT = 3900;
const POSTGRES_PORT = 5499;
const STUB_PORT = 3911;
const SAMPLES = path.resolve("../shared/samples");
const id = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
const tags = {
  base: process.env.CONTAINER_TEST_BASE_IMAGE ?? `framejury-ctest-base:${id}`,
  postgres: `framejury-ctest-postgres:${id}`,
  minio: `framejury-ctest-minio:${id}`,
  app: process.env.CONTAINER_TEST_IMAGE ?? `framejury-ctest:${id}`,
};
const project = `fjctest${id}`;
const base = `http://127.0.0.1:${WEB_PORT}`;
const admin = { email: "admin@example.test", password: `pw-${randomBytes(12).toString("hex")}` };
const work = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-container-test-"));
const made: string[] = [];

const env: NodeJS.ProcessEnv = {
  ...process.env,
  FRAMEJURY_IMAGE: tags.app,
  POSTGRES_IMAGE: tags.postgres,
  POSTGRES_HOST: "127.0.0.1",
  POSTGRES_PORT: String(POSTGRES_PORT),
  POSTGRES_PASSWORD: randomBytes(16).toString("hex"),
  APP_SECRET: randomBytes(32).toString("base64url"),
  PORT: String(WEB_PORT),
  APP_URL: base,
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  // The stub LLM listens on this machine's loopback, which judge endpoints may use only with this.
  ALLOW_PRIVATE_ENDPOINTS: "1",
  // One video at a time per worker, so both workers hold a job while the run goes.
  WORKER_CONCURRENCY: "1",
  LOG_LEVEL: "warn",
};
/**
 * compose.yaml as it is, less web's published port: a container on the host's network cannot have one, and an
 * override file can add to a list but not empty it (Compose 1.29).
 */
function composeFileForHostNetwork(): string {
  const file = YAML.parse(fs.readFileSync("compose.yaml", "utf8"), { merge: true }) as {
    services: Record<string, { ports?: unknown }>;
  };
  delete file.services.web!.ports;
  const copy = path.join(work, "compose.yaml");
  // Every string quoted: Compose 1.29 reads YAML 1.1, where a bare `no` is false.
  fs.writeFileSync(copy, YAML.stringify(file, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" }));
  return copy;
}
const compose: Compose = composeFor([composeFileForHostNetwork(), "deploy/test/compose.test.yaml"], project, env);

/** The registry settings of this machine's npm, for the dependency stage only (build secrets). */
function npmSecrets(): string[] {
  const registry = run("npm", ["config", "get", "registry"]).trim();
  const cafile = [run("npm", ["config", "get", "cafile"]).trim(), process.env.NODE_EXTRA_CA_CERTS ?? ""].find(
    (file) => file && file !== "null" && file !== "undefined" && fs.existsSync(file),
  );
  const npmrc = path.join(work, "npmrc");
  fs.writeFileSync(npmrc, `registry=${registry}\n${cafile ? "cafile=/run/secrets/npm_ca\n" : ""}`, { mode: 0o600 });
  return ["--secret", `id=npmrc,src=${npmrc}`, ...(cafile ? ["--secret", `id=npm_ca,src=${cafile}`] : [])];
}

/** The app image's build context: HEAD's files (git archive), or the working tree with CONTAINER_TEST_WORKTREE=1. */
function buildContext(): string {
  if (process.env.CONTAINER_TEST_WORKTREE === "1") return ".";
  const source = path.join(work, "source");
  fs.mkdirSync(source);
  const archive = path.join(work, "source.tar");
  run("git", ["archive", "--format=tar", "-o", archive, "HEAD"]);
  run("tar", ["-xf", archive, "-C", source]);
  fs.rmSync(archive);
  log(
    `building HEAD (${run("git", ["rev-parse", "--short", "HEAD"]).trim()}); uncommitted changes are not in the image`,
  );
  return source;
}

async function buildImages(): Promise<{ buildSeconds: number | null }> {
  if (process.env.CONTAINER_TEST_BASE_IMAGE) {
    log(`using the base image ${tags.base} (CONTAINER_TEST_BASE_IMAGE)`);
  } else {
    log(`making the base image ${tags.base} (debootstrap bookworm + this machine's Node)`);
    await runLoud("sh", ["deploy/test/make-base.sh", tags.base, work], { ...process.env, DOCKER });
    made.push(tags.base);
  }
  const buildkit = { ...process.env, DOCKER_BUILDKIT: "1" };
  log(`building ${tags.postgres} (Debian's postgresql on the same base)`);
  await runLoud(
    DOCKER,
    [
      "build",
      "--network",
      "host",
      "-q",
      "--build-arg",
      `BASE_IMAGE=${tags.base}`,
      "-f",
      "deploy/test/postgres.Dockerfile",
      "-t",
      tags.postgres,
      "deploy/test",
    ],
    buildkit,
  );
  made.push(tags.postgres);
  log(`building ${tags.minio} (a stand-in for MinIO's images: s3rver on the same base)`);
  await runLoud(
    DOCKER,
    [
      "build",
      "--network",
      "host",
      "-q",
      "--build-arg",
      `BASE_IMAGE=${tags.base}`,
      ...npmSecrets(),
      "-f",
      "deploy/test/minio.Dockerfile",
      "-t",
      tags.minio,
      "deploy/test",
    ],
    buildkit,
  );
  made.push(tags.minio);
  if (process.env.CONTAINER_TEST_IMAGE) {
    log(`testing the image ${tags.app} (CONTAINER_TEST_IMAGE), not building one`);
    return { buildSeconds: null };
  }
  const context = buildContext();
  log(`building ${tags.app} from the Dockerfile in ${context} (next build on this machine: 10 minutes or more)`);
  const started = Date.now();
  await runLoud(
    DOCKER,
    [
      "build",
      "--network",
      "host",
      "--progress",
      "plain",
      "--build-arg",
      `BASE_IMAGE=${tags.base}`,
      ...npmSecrets(),
      "-t",
      tags.app,
      context,
    ],
    buildkit,
  );
  made.push(tags.app);
  return { buildSeconds: Math.round((Date.now() - started) / 1000) };
}

async function waitHealthy(what: string): Promise<number> {
  const started = Date.now();
  await waitFor(
    `${what}: the web container healthy`,
    () => {
      const [web] = compose.containers("web");
      if (!web) return null;
      const state = compose.health(web);
      if (state === "exited" || state === "dead")
        throw new WaitInVain(`the web container ${state}:\n${docker(["logs", "--tail", "60", web])}`);
      return state === "healthy";
    },
    6 * 60_000,
    1000,
  );
  return (Date.now() - started) / 1000;
}

/** `up` web, two workers and PostgreSQL (migrate runs first); returns the seconds from `up` to healthy. */
async function up(what: string): Promise<number> {
  const started = Date.now();
  compose(["up", "-d", "--scale", "worker=2", "web", "worker"]);
  await waitHealthy(what);
  const workers = compose.containers("worker");
  check(workers.length === 2, `expected 2 worker containers, found ${workers.length}`);
  const migrate = compose.containers("migrate");
  check(migrate.length === 1, "the migrate service did not run");
  const exit = docker(["inspect", "--format", "{{.State.ExitCode}}", migrate[0]!]).trim();
  check(exit === "0", `migrate exited with ${exit}`);
  return (Date.now() - started) / 1000;
}

function startStub(): ChildProcess {
  const stub = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/stub-llm.ts", "--port", String(STUB_PORT), "--latency", "4000", "--quiet"],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  return stub;
}

const clips = fs.existsSync(SAMPLES)
  ? fs
      .readdirSync(SAMPLES)
      .filter((name) => name.endsWith(".mp4"))
      .sort()
      .slice(0, 3)
      .map((name) => path.join(SAMPLES, name))
  : [];

async function importClips(api: Api, projectId: string): Promise<string[]> {
  check(clips.length > 0, `no .mp4 clip in ${SAMPLES}`);
  log(`importing ${clips.map((clip) => path.basename(clip)).join(", ")} with npm run import against the container`);
  await runLoud(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/import.ts",
      "--server",
      base,
      "--project",
      projectId,
      "--model",
      "container-test",
      "--state",
      path.join(work, "import-state.json"),
      ...clips,
    ],
    { ...process.env, FRAMEJURY_API_KEY: api.key },
  );
  const listed = await api.call<{ videos: { id: string }[] }>("GET", `/api/v1/projects/${projectId}/videos`);
  check(listed.videos.length === clips.length, `the project holds ${listed.videos.length} videos, not ${clips.length}`);
  return listed.videos.map((video) => video.id);
}

async function judgeWhileStoppingAWorker(api: Api, projectId: string): Promise<RunState> {
  const endpoint = await api.call<{ id: string }>("POST", `/api/v1/projects/${projectId}/endpoints`, {
    name: "Stub LLM (simulated)",
    baseUrl: `http://127.0.0.1:${STUB_PORT}/v1`,
    model: "stub-vision",
    apiKey: "",
  });
  const started = await api.call<RunState>("POST", `/api/v1/projects/${projectId}/runs`, {
    pipeline: "hallucination",
    endpointId: endpoint.id,
  });
  log(`run ${started.id} started; waiting until the stub has been called, then stopping a worker`);
  await waitFor(
    "the stub's first judge call",
    async () => {
      const requests = (await (await fetch(`http://127.0.0.1:${STUB_PORT}/__stub/requests`)).json()) as unknown[];
      return Array.isArray(requests) ? requests.length > 0 : (requests as { requests?: unknown[] }).requests?.length;
    },
    5 * 60_000,
  );
  const [stopped, kept] = compose.containers("worker");
  docker(["stop", "-t", "30", stopped!]);
  check(compose.health(kept!) === "running" || compose.health(kept!) === "healthy", "the other worker is not running");
  log(`stopped worker ${stopped!.slice(0, 12)} mid-run; ${kept!.slice(0, 12)} goes on alone`);
  const finished = await waitFor(
    `run ${started.id} to finish`,
    async () => {
      const state = await api.call<RunState>("GET", `/api/v1/runs/${started.id}`);
      return ["done", "failed", "cancelled"].includes(state.status) ? state : null;
    },
    10 * 60_000,
    2000,
  );
  const steps = finished.steps ?? {};
  check(finished.status === "done", `the run ended ${finished.status}: ${JSON.stringify(finished).slice(0, 500)}`);
  check((steps.total ?? 0) > 0 && steps.done === steps.total, `not every step is done: ${JSON.stringify(steps)}`);
  check(!steps.failed && !steps.parse_failed, `steps failed: ${JSON.stringify(steps)}`);
  log(`run finished on the remaining worker: ${steps.done}/${steps.total} steps done`);
  return finished;
}

/** Each role that reads a secret refuses a CHANGEME one, naming the variable, with a non-zero status. */
function checkPlaceholderRefusal(): void {
  const database = `postgresql://framejury:${env.POSTGRES_PASSWORD}@127.0.0.1:${POSTGRES_PORT}/framejury`;
  const cases: { role: string; variable: string; env: Record<string, string> }[] = [
    { role: "web", variable: "APP_SECRET", env: { APP_SECRET: "CHANGEME", DATABASE_URL: database } },
    {
      role: "worker",
      variable: "DATABASE_URL",
      env: { DATABASE_URL: database.replace(env.POSTGRES_PASSWORD!, "CHANGEME") },
    },
    { role: "migrate", variable: "ADMIN_PASSWORD", env: { ADMIN_PASSWORD: "CHANGEME", DATABASE_URL: database } },
    // The one-shot roles too, before they scan a folder or dump a database with it.
    { role: "import", variable: "FRAMEJURY_API_KEY", env: { FRAMEJURY_API_KEY: "CHANGEME" } },
    { role: "backup", variable: "APP_SECRET", env: { APP_SECRET: "CHANGEME", DATABASE_URL: database } },
  ];
  for (const c of cases) {
    const result = spawnSyncDocker([
      "run",
      "--rm",
      "--network",
      "host",
      ...Object.entries(c.env).flatMap(([name, value]) => ["-e", `${name}=${value}`]),
      tags.app,
      c.role,
    ]);
    check(result.status !== 0, `the ${c.role} role started with ${c.variable}=CHANGEME`);
    check(
      result.stderr.includes(`refusing to start: ${c.variable} is still the placeholder CHANGEME`),
      `the ${c.role} role's refusal does not name ${c.variable}:\n${result.stderr}${result.stdout}`,
    );
    log(`the ${c.role} role refuses ${c.variable}=CHANGEME (exit ${result.status})`);
  }
}

function spawnSyncDocker(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(DOCKER, args, { encoding: "utf8" });
  return { status: result.error ? 1 : result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

const allProfiles = (args: string[]) => ["--profile", "s3", "--profile", "extract", "--profile", "demo", ...args];

/** The optional profiles: `s3` and `extract` with the app's storage in MinIO's bucket, then `demo`. */
async function checkProfiles(api: Api, clip: string): Promise<void> {
  const s3Project = await api.call<{ id: string }>("POST", "/api/v1/projects", {
    name: "Container test: s3 and extract",
  });
  log("docker-compose down, then up with the s3 and extract profiles and STORAGE_URL in their bucket");
  compose(["down", "--timeout", "30"]);
  const settings = s3Settings(tags.minio);
  const s3Compose = composeFor([composeFileForHostNetwork(), "deploy/test/compose.test.yaml"], project, {
    ...env,
    ...settings,
  });
  await checkS3AndExtract(s3Compose, settings, api, s3Project.id, clip, () => waitHealthy("with the s3 profile"));
  s3Compose(allProfiles(["down", "--timeout", "30"]));
  await checkDemo(composeFor([composeFileForHostNetwork()], project, { ...env, COMPOSE_PROFILES: "demo" }));
}

async function cleanUp(daemon: { stop(): Promise<void> }, stub: ChildProcess | null): Promise<void> {
  stub?.kill("SIGTERM");
  try {
    compose(allProfiles(["down", "--volumes", "--remove-orphans", "--timeout", "20"]));
  } catch (error) {
    log(`could not take the compose project down: ${String(error)}`);
  }
  if (process.env.CONTAINER_TEST_KEEP !== "1") {
    for (const tag of made.reverse()) spawnSyncDocker(["rmi", "--force", tag]);
    spawnSyncDocker(["builder", "prune", "--all", "--force"]);
    spawnSyncDocker(["image", "prune", "--force"]);
  } else {
    log(`kept the images ${made.join(", ")} and the build cache; a next run without debootstrap:`);
    log(`  CONTAINER_TEST_BASE_IMAGE=${tags.base} CONTAINER_TEST_KEEP=1 npm run test:container`);
  }
  fs.rmSync(work, { recursive: true, force: true });
  await daemon.stop();
}

async function main(): Promise<void> {
  const started = Date.now();
  const daemon = await ensureDockerDaemon();
  let stub: ChildProcess | null = null;
  const timings: string[] = [];
  try {
    const { buildSeconds } = await buildImages();
    const { sizeBytes } = inspectImage(tags.app, work);
    timings.push(`image ${tags.app}: ${(sizeBytes / 1e6).toFixed(0)} MB (aim: under 900 MB)`);
    if (buildSeconds !== null) timings.push(`image build: ${buildSeconds} s`);

    const firstUp = await up("first start");
    timings.push(`up to healthy (first start, empty database): ${firstUp.toFixed(1)} s`);
    log(timings.at(-1)!);
    stub = startStub();
    const api = await apiKeyFor(base, admin.email, admin.password);
    const created = await api.call<{ id: string }>("POST", "/api/v1/projects", { name: "Container test" });
    const videos = await importClips(api, created.id);
    const judged = await judgeWhileStoppingAWorker(api, created.id);

    log("docker-compose down (volumes kept), then up again");
    compose(["down", "--timeout", "30"]);
    const secondUp = await up("second start");
    timings.push(`up to healthy (second start, data kept): ${secondUp.toFixed(1)} s`);
    const again = await apiKeyFor(base, admin.email, admin.password);
    const listed = await again.call<{ videos: { id: string }[] }>("GET", `/api/v1/projects/${created.id}/videos`);
    check(listed.videos.length === videos.length, `after down/up the project holds ${listed.videos.length} videos`);
    const run = await again.call<RunState>("GET", `/api/v1/runs/${judged.id}`);
    check(run.status === "done", `after down/up the run is ${run.status}`);
    log(`after down and up: the admin signs in, ${listed.videos.length} videos and the finished run are there`);

    checkPlaceholderRefusal();
    await checkProfiles(again, clips[0]!);
    timings.push(`total: ${Math.round((Date.now() - started) / 1000)} s`);
    console.log(`\n[test:container] PASSED\n${timings.map((line) => `  ${line}`).join("\n")}\n`);
  } finally {
    await cleanUp(daemon, stub);
    await sleep(0);
  }
}

main().catch((error: unknown) => {
  console.error(`[test:container] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
