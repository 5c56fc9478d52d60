import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { GET as live } from "../../app/api/health/live/route";
import { waitFor, WorkerProcesses } from "../../testkit/testing/worker-processes";
import { ROOT } from "./import-graph";
import { keepAlive } from "./worker-alive";
import { JUDGING_STOP_WAIT_MS, QUEUE_STOP_WAIT_MS } from "./worker-jobs";

/**
 * The stop grace a worker needs (seconds): both waits with a margin for the database's close. compose.yaml's
 * `stop_grace_period` and the Kubernetes manifest's `terminationGracePeriodSeconds` give at least this much; a shorter
 * one (Docker's default is 10 s) ends in SIGKILL, and another worker sends the killed one's calls in flight again.
 */
const WORKER_STOP_GRACE_SECONDS = 45;

type Service = Record<string, unknown> & { ports?: string[]; image?: string; stop_grace_period?: string };
const compose = parse(fs.readFileSync(path.join(ROOT, "compose.yaml"), "utf8")) as {
  services: Record<string, Service>;
};

/** The Kubernetes manifests' objects, each with the file it is in. */
function manifests(): { file: string; object: Record<string, any> }[] {
  const dir = path.join(ROOT, "deploy/kubernetes");
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .flatMap((file) =>
      parseAllDocuments(fs.readFileSync(path.join(dir, file), "utf8")).map((document) => ({
        file,
        object: document.toJS() as Record<string, any>,
      })),
    );
}

/** A compose duration such as "45s" or "1m30s", in seconds. */
function seconds(duration: string): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration);
  if (!match || duration === "") throw new Error(`not a duration: ${duration}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

describe("the worker's stop grace", () => {
  it("covers the worker's own waits, and compose and Kubernetes give it at least that", () => {
    expect(JUDGING_STOP_WAIT_MS + QUEUE_STOP_WAIT_MS).toBeLessThanOrEqual((WORKER_STOP_GRACE_SECONDS - 10) * 1000);
    const worker = compose.services.worker!;
    expect(worker.stop_grace_period, "compose.yaml's worker has no stop_grace_period").toBeDefined();
    expect(seconds(worker.stop_grace_period!)).toBeGreaterThanOrEqual(WORKER_STOP_GRACE_SECONDS);
    const deployment = manifests().find(({ object }) => object.metadata?.name === "framejury-worker")!.object;
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      WORKER_STOP_GRACE_SECONDS,
    );
  });
});

/** A compose value with each `${NAME:-default}` as its default: what it is when the environment sets nothing. */
function byDefault(value: string): string {
  return value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1");
}

describe("compose.yaml", () => {
  it("publishes the web server and the demo on this machine's loopback only", () => {
    const published = Object.entries(compose.services).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => ({ name, port: byDefault(port) })),
    );
    expect(published.map(({ name }) => name).sort()).toEqual(["demo", "web"]);
    for (const { name, port } of published) expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it("pins the tag of every image it pulls", () => {
    const pulled = Object.entries(compose.services)
      .filter(([, service]) => service.image && !byDefault(service.image).startsWith("framejury:"))
      .map(([name, service]) => ({ name, image: byDefault(service.image!) }));
    expect(pulled.map(({ name }) => name).sort()).toEqual(["minio", "minio-bucket", "postgres"]);
    for (const { name, image } of pulled) expect(image, name).toMatch(/^[\w./-]+:(?!latest$)[\w.-]+$/);
  });
});

describe("the Kubernetes manifests", () => {
  const podSpecs = manifests()
    .filter(({ object }) => object.kind === "Deployment" || object.kind === "Job")
    .map(({ file, object }) => ({ file, spec: object.spec.template.spec }));

  it("run every container without privilege escalation, on a read-only root, with every capability dropped", () => {
    expect(podSpecs.map(({ file }) => file).sort()).toEqual(["migrate-job.yaml", "web.yaml", "worker.yaml"]);
    for (const { file, spec } of podSpecs) {
      for (const container of spec.containers) {
        expect(container.securityContext, `${file}: ${container.name}`).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ["ALL"] },
        });
        // The entrypoint writes its role under /tmp: a writable volume there.
        const tmp = container.volumeMounts?.find((mount: { mountPath: string }) => mount.mountPath === "/tmp");
        expect(tmp, `${file}: ${container.name} has no /tmp volume`).toBeDefined();
      }
    }
  });

  it("restart a web pod only when it stops answering, not while the database is down", async () => {
    const web = podSpecs.find(({ file }) => file === "web.yaml")!.spec.containers[0];
    expect(web.readinessProbe.httpGet.path).toBe("/api/health");
    expect(web.livenessProbe.httpGet.path).toBe("/api/health/live");
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgresql://nobody@127.0.0.1:1/none";
    try {
      const response = await live(new Request("http://localhost:3000/api/health/live"));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });
});

describe("the worker's liveness (no HTTP server, no database)", () => {
  const workers = new WorkerProcesses();

  it("is the file the worker keeps fresh: healthy while it is, not once it is stale or missing", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fj-alive-"));
    const roleFile = path.join(dir, "role");
    fs.writeFileSync(roleFile, "worker\n");
    const alive = path.join(dir, "alive");
    const check = () =>
      spawnSync(process.execPath, [path.join(ROOT, "deploy/docker/healthcheck.mjs")], {
        env: { ...process.env, FRAMEJURY_ROLE_FILE: roleFile, WORKER_ALIVE_FILE: alive },
      }).status;
    const makeStale = () => {
      const old = new Date(Date.now() - 2 * 60_000);
      fs.utimesSync(alive, old, old);
    };
    expect(check()).toBe(1);
    const stop = keepAlive(alive, 50);
    expect(check()).toBe(0);
    // Stale, then written again by the worker's timer.
    makeStale();
    await waitFor(async () => check() === 0, 10_000, "the liveness file written again");
    stop();
    makeStale();
    expect(check()).toBe(1);

    const entrypoint = fs.readFileSync(path.join(ROOT, "deploy/docker/entrypoint.sh"), "utf8");
    expect(entrypoint).toMatch(/\n\s+worker\)\n\s+export WORKER_ALIVE_FILE=\/tmp\/framejury-worker-alive\n/);
    const deployment = manifests().find(({ object }) => object.metadata?.name === "framejury-worker")!.object;
    expect(deployment.spec.template.spec.containers[0].livenessProbe.exec.command).toEqual([
      "node",
      "/app/deploy/docker/healthcheck.mjs",
    ]);
  });

  it("is written by a worker from its start, before it reaches the database", { timeout: 60_000 }, async () => {
    const alive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fj-alive-")), "alive");
    // A database nothing listens on: the file is written before the worker reaches for it.
    const { child } = workers.start({
      WORKER_ALIVE_FILE: alive,
      DATABASE_URL: "postgresql://nobody:secret@127.0.0.1:9/none",
    });
    try {
      await waitFor(async () => fs.existsSync(alive), 30_000, "the liveness file");
    } finally {
      await workers.kill(child);
    }
  });
});
