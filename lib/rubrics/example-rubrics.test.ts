/**
 * Issue 25: each example rubric file, imported as a project's rubric task and run end to end on a real
 * PostgreSQL through the stub LLM: its pipeline is registered, its prompt carries the criteria and the answer
 * format, its scores land per scope, and its per-video metric is the declared aggregation of them.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { summaryMetricValues, type SubjectSummary } from "../task-modules/task-display";
import { makeUser } from "../../testkit/testing/fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { rubricMetricId, rubricTargetId } from "./rubric-declaration";
import { createRubricTask } from "./rubric-tasks";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

const EXAMPLES = path.join(__dirname, "examples");
const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".yaml"));

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(async () => stub?.close());

async function stubEndpoint(projectId: string) {
  return createStubEndpoint(prisma, owner, projectId, stub.baseURL);
}

describe("the example rubric files run end to end", () => {
  it("ships the three examples", () =>
    expect(files.sort()).toEqual(["on-screen-text.yaml", "physical-plausibility.yaml", "prompt-adherence.yaml"]));

  it.each(files)("%s: imported, run on two videos, scored per scope and aggregated per video", async (file) => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 3,
      uniformFrames: 8,
      name: `Rubric ${file}`,
    });
    const created = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      file: fs.readFileSync(path.join(EXAMPLES, file), "utf8"),
    });
    const task = (await catalogFor(prisma, projectId)).findTask(created.pipeline)!;
    expect(task).not.toBeNull();
    const endpoint = await stubEndpoint(projectId);
    const before = stub.requests.length;
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: created.pipeline, endpointId: endpoint.id },
    );
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(status.status).toBe("done");
    const requests = stub.requests.slice(before);
    expect(requests.every((r) => r.rule === "rubric")).toBe(true);

    const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id }, select: { settings: true } });
    const definition = (
      stored.settings as {
        definition: { frames: { mode: string }; criteria: { id: string; type: string; aggregation?: string }[] };
      }
    ).definition;
    const scopes = { uniform: 1, key_frames: 1, each_key_frame: 3, each_cluster: 3 }[definition.frames.mode]!;
    expect(requests).toHaveLength(2 * scopes);

    const scores = await prisma.score.findMany({ where: { runId: run.id } });
    const metrics = await prisma.runMetric.findMany({ where: { runId: run.id } });
    for (const criterion of definition.criteria) {
      const targetId = rubricTargetId(created.key, criterion.id);
      const target = task.targets.find((t) => t.id === targetId)!;
      for (const videoId of videoIds) {
        const own = scores.filter((s) => s.videoId === videoId && s.category === targetId).map((s) => s.value);
        expect(own).toHaveLength(scopes);
        // Every value is on the criterion's scale.
        for (const value of own)
          expect(
            target.scale.kind === "numeric"
              ? value >= target.scale.min && value <= target.scale.max
              : target.scale.values.some((v) => v.value === value),
          ).toBe(true);
        const metric = metrics.find(
          (m) => m.videoId === videoId && m.metric === rubricMetricId(created.key, criterion.id),
        );
        const expected =
          criterion.aggregation === "max" ? Math.max(...own) : own.reduce((a, b) => a + b, 0) / own.length;
        expect(metric?.value).toBeCloseTo(expected);
        // The video page's "Judge:" line reads the same value from the video's stored summary.
        const summary = (
          await prisma.runVideo.findUniqueOrThrow({
            where: { runId_videoId: { runId: run.id, videoId } },
            select: { summary: true },
          })
        ).summary;
        expect(
          summaryMetricValues(task, summary as SubjectSummary)[rubricMetricId(created.key, criterion.id)],
        ).toBeCloseTo(expected);
      }
    }
  });
});
