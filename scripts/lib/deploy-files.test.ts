import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { ROOT } from "./import-graph";
import { JUDGING_STOP_WAIT_MS, QUEUE_STOP_WAIT_MS, WORKER_STOP_GRACE_SECONDS } from "./worker-jobs";

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
