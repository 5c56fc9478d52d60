/**
 * The demo's alignment (lib/tasks/hallucination/demo-seed.ts) succeeds whatever its split: 8 clips tagged as the demo
 * tags them, their verdicts as labels, the demo's input; on real PostgreSQL with the stub LLM, over several seeds
 * (the demo's split depends on its videos' ids, new each time).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { alignBuiltinJudge } from "../../alignment/align-builtin";
import { labelSetStore } from "../../alignment/label-store";
import { createLabelSet } from "../../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";

import { alignmentDemoTags } from "./demo-seed";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(async () => stub?.close());

describe("the demo's alignment of the verdict", () => {
  it("keeps tuned settings that fix the biased clips on train and on held-out, for any split", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 8,
      keyFrames: 2,
      name: "Demo alignment",
    });
    videoIds.sort();
    for (const [i, id] of videoIds.entries()) {
      const { hallucinates, inflated } = alignmentDemoTags(i);
      await prisma.video.update({
        where: { id },
        data: {
          prompt: `A glass of water spills ${i} [sim-verdict=${hallucinates ? 1 : 0}]${inflated ? " [sim-inflate]" : ""}`,
        },
      });
    }
    const labelSet = await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      { name: "Verdicts", format: "generic", fileName: "verdicts.csv", sha256: "8".repeat(64), citation: "" },
      videoIds.map((videoId, i) => ({
        target: {
          task: "hallucination",
          targetType: "verdict",
          target: "verdict",
          videoId,
          itemId: "",
          stepId: "",
          scopeIndex: 0,
          frameSetId: "",
        },
        value: alignmentDemoTags(i).hallucinates ? 1 : 0,
        annotator: null,
      })),
    );
    const labels = labelSetStore(
      prisma,
      { projectId, labelSetId: labelSet.id, task: "hallucination", target: "verdict", targetType: "verdict" },
      (v) => v === 1,
    );
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    for (const seed of [1, 2, 3]) {
      const report = await alignBuiltinJudge(
        { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines, labels },
        await projectAccess(prisma, owner, projectId, "prompts.manage"),
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "hallucination",
          targetId: "verdict",
          rewriteStepId: "static_hallucination",
          judgeEndpointId: endpoint.id,
          optimizerEndpointId: endpoint.id,
          budget: { maxCalls: 2000, maxCostUsd: 1 },
          heldOutShare: 0.5,
          rewrites: 1,
          seed,
        },
      );
      expect(report.split).toMatchObject({ train: expect.any(Array), heldOut: expect.any(Array) });
      expect(report.split.heldOut).toHaveLength(4);
      const best = report.candidates.find((c) => c.id === report.bestId)!;
      expect(best.kind).toBe("settings");
      // The middle of the thresholds that separate train (from one above train's biased clips, 5 or 6, to its
      // hallucinations' lowest, 8 or 9): 7 or 8, which separate held-out too (biased clips 5–6, hallucinations 8–9).
      // The lowest of them (6) would fail a held-out clip biased to 6.
      expect(best.note).toMatch(/verdict\.threshold [78]$/);
      expect(best.train.kappa).toBe(1);
      expect(report.candidates[0]!.train.kappa!).toBeLessThan(1);
      expect(report.heldOut!.best.kappa).toBe(1);
      expect(report.heldOut!.baseline.kappa!).toBeLessThan(1);
    }
  }, 300_000);
});
