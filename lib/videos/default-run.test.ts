/**
 * The run the video list and a video's page show when none is named: the latest finished run, never one stopped,
 * cancelled, still queued or running, nor an ensemble's member.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { createRunSchema } from "../judge/runs/run-input.validation";
import { createRun, videoScores } from "../judge/runs/runs";
import { resolveFilterRun } from "./video-filter-sql";
import { projectAccess } from "../authz/permissions";
import { accessOfVideo } from "../../testkit/testing/record-access";

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

const noQueue = { enqueue: async () => {} };
const parse = (body: unknown) => createRunSchema(builtInCatalogue()).parse(body);

describe("the run a video list and a video page show by default", () => {
  it("is the latest done run, not a later stopped, cancelled, queued or running one, nor an ensemble's member", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, "http://127.0.0.1:9/v1");
    const later: { status: "done" | "cancelled" | "queued" | "running"; stopReason?: string; member?: true }[] = [
      { status: "done" },
      { status: "cancelled", stopReason: "budget" },
      { status: "cancelled" },
      { status: "queued" },
      { status: "running" },
      { status: "done", member: true },
    ];
    const runIds: string[] = [];
    for (const [index, state] of later.entries()) {
      const run = (await createRun(
        { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        parse({ pipeline: "hallucination", endpointId: endpoint.id }),
      )) as { id: string };
      await prisma.judgeRun.update({
        where: { id: run.id },
        data: {
          status: state.status,
          stopReason: state.stopReason ?? null,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)),
          // A member of the stopped ensemble run (the budget-stopped one above).
          ...(state.member ? { parentRunId: runIds[1], memberIndex: 0 } : {}),
        },
      });
      runIds.push(run.id);
    }
    const finished = runIds[0];

    const listed = await resolveFilterRun(prisma, builtInCatalogue(), projectId, undefined);
    expect(listed?.id).toBe(finished);
    const shown = await videoScores(prisma, await accessOfVideo(prisma, owner, videoIds[0]!), videoIds[0]!);
    expect(shown.run?.id).toBe(finished);

    // Named, any run is shown as it is.
    expect((await resolveFilterRun(prisma, builtInCatalogue(), projectId, runIds[1]))?.id).toBe(runIds[1]);
    expect(
      (await videoScores(prisma, await accessOfVideo(prisma, owner, videoIds[0]!), videoIds[0]!, runIds[3])).run?.id,
    ).toBe(runIds[3]);
  });

  it("is none while no run has finished", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, "http://127.0.0.1:9/v1");
    await createRun(
      { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ pipeline: "hallucination", endpointId: endpoint.id }),
    );
    expect(await resolveFilterRun(prisma, builtInCatalogue(), projectId, undefined)).toBeNull();
    expect((await videoScores(prisma, await accessOfVideo(prisma, owner, videoIds[0]!), videoIds[0]!)).run).toBeNull();
  });
});
