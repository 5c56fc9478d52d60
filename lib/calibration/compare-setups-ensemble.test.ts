/**
 * Compare setups with ensemble runs (issue 26 item 3): a self-consistency run and a judge panel call no endpoint
 * themselves, so their calls, tokens, cost and latency are their members' summed, beside a plain run's own.
 * A rubric task judged by the stub's simulated judge (testkit/llm-stub/sim-judge.ts) on a real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createRun } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { createRubricTask } from "../rubrics/rubric-tasks";
import { rubricTargetId } from "../rubrics/rubric-declaration";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { createEnsembleRun } from "../ensembles/ensemble-runs";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { insertJudgment } from "../../testkit/testing/judgments";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { compareSetupsQuerySchema } from "./calibration.validation";
import { compareSetupsReport } from "./compare-setups-load";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const RUBRIC = JSON.stringify({
  name: "Simulated quality for setups",
  description: "One criterion whose truth the test knows.",
  guidelines: "Judge the quality.",
  subject: { kind: "video" },
  frames: { mode: "key_frames" },
  criteria: [
    { id: "quality", name: "Quality", type: "numeric", min: 0, max: 10, step: 1, definition: "0 worst, 10 best." },
  ],
  prompt: 'Video prompt: "{{prompt}}"\n\nThe images are {{frames}}\n\n{{guidelines}}\n\n{{criteria}}',
  reasons: true,
});
const TRUTHS = [2, 8, 3, 9];

let stub: StubServer;
let owner: Actor;
let projectId: string;
let videoIds: string[];
let pipeline: string;
let targetId: string;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: TRUTHS.length,
    keyFrames: 1,
    name: "Compare ensembles",
  }));
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({ where: { id }, data: { prompt: `A kite ${i}, truth=${TRUTHS[i]}` } });
  const created = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    file: RUBRIC,
  });
  pipeline = created.pipeline;
  targetId = rubricTargetId(created.key, "quality");
}, 300_000);
afterAll(async () => stub?.close());

describe("compare setups with ensemble runs", () => {
  it(
    "a self-consistency run's and a panel's calls, tokens, cost and latency are their members' sums; a plain run's are its own",
    { timeout: 300_000 },
    async () => {
      const deps = {
        prisma,
        queue: inlineJudgeQueue(testJudgeDeps()),
        pipelines: builtInCatalogue().pipelines,
        startEnsemble: createEnsembleRun,
      };
      const priced = { maxConcurrency: 4, pricePer1kInput: 0.001, pricePer1kOutput: 0.002 };
      // A third judge for the plain run: a panel member on the same endpoint would share its cache keys.
      const [a, b, c] = await Promise.all(
        [1, 2, 3].map((seed) =>
          createStubEndpoint(prisma, owner, projectId, stub.baseURL, `stub-sim-judge?noise=1&bias=0&seed=${seed}`, {
            name: `judge ${seed}`,
            ...priced,
          }),
        ),
      );
      const samples = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline,
        endpointId: a!.id,
        ensemble: { kind: "samples", samples: 3, temperature: 0.7 },
      });
      const panel = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline,
        endpointId: a!.id,
        ensemble: { kind: "panel", endpointIds: [a!.id, b!.id], combine: "mean" },
      });
      const plain = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline,
        endpointId: c!.id,
      });
      const membersOf = (run: unknown) => (run as { members: string[] }).members;
      expect(membersOf(samples)).toHaveLength(3);
      expect(membersOf(panel)).toHaveLength(2);

      // A reviewer labels every video with its truth (the reference here is their consensus).
      const reviewer = await makeUser();
      await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
      const scored = await prisma.score.findMany({
        where: { runId: plain.id, category: targetId },
        select: { videoId: true, stepId: true, scopeIndex: true },
      });
      expect(scored).toHaveLength(TRUTHS.length);
      for (const s of scored) {
        const value = TRUTHS[videoIds.indexOf(s.videoId)]!;
        await insertJudgment(prisma, {
          projectId,
          reviewerId: reviewer.userId,
          task: pipeline,
          targetType: "score",
          target: targetId,
          videoId: s.videoId,
          stepId: s.stepId,
          scopeIndex: s.scopeIndex,
          value,
        });
      }

      const report = await compareSetupsReport(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        compareSetupsQuerySchema.parse({
          runIds: `${samples.id},${panel.id},${plain.id}`,
          reference: "consensus",
          target: targetId,
          iterations: "200",
        }),
      );
      expect(report.comparison.videoIds).toHaveLength(TRUTHS.length);
      const sums = async (runIds: string[]) => {
        const calls = await prisma.llmCall.findMany({
          where: { runId: { in: runIds } },
          select: { costUsd: true, promptTokens: true, completionTokens: true, latencyMs: true },
        });
        const sum = (f: (c: (typeof calls)[number]) => number | null) => calls.reduce((s, c) => s + (f(c) ?? 0), 0);
        return {
          calls: calls.length,
          costUsd: sum((c) => c.costUsd),
          prompt: sum((c) => c.promptTokens),
          completion: sum((c) => c.completionTokens),
          latencySeconds: sum((c) => c.latencyMs) / 1000,
        };
      };
      for (const [setup, runIds, expectedCalls] of [
        [report.runs[0]!, membersOf(samples), 3 * TRUTHS.length],
        [report.runs[1]!, membersOf(panel), 2 * TRUTHS.length],
        [report.runs[2]!, [plain.id], TRUTHS.length],
      ] as const) {
        const expected = await sums([...runIds]);
        // Each video is one call per member (no cache hits across samples or judges), each priced.
        expect(expected.calls).toBe(expectedCalls);
        expect(expected.costUsd).toBeGreaterThan(0);
        expect(setup.calls).toBe(expected.calls);
        expect(setup.costUsd).toBeCloseTo(expected.costUsd, 12);
        expect(setup.tokens).toEqual({ prompt: expected.prompt, completion: expected.completion });
        expect(setup.latencySeconds).toBeCloseTo(expected.latencySeconds, 9);
        expect(setup).toMatchObject({ callsWithoutUsage: 0, parseFailures: 0, failedSteps: 0 });
      }
      // The parents made no call of their own: what they show is entirely their members'.
      expect(await prisma.llmCall.count({ where: { runId: { in: [samples.id, panel.id] } } })).toBe(0);
      // Every setup is compared on the same videos, with a κ and Spearman against the reviewer's labels.
      for (const r of report.comparison.runs) expect(r.n).toBe(TRUTHS.length);
    },
  );
});
