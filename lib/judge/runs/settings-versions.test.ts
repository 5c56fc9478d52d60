/** Versioned run defaults on real PostgreSQL: each save is a version, older versions stay readable, runs record theirs. */
import { describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { ForbiddenError } from "../../errors";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";

import { createRun } from "./runs";
import { projectPipelineDefaults, setPipelineDefaults } from "./pipeline-defaults";
import { latestSettingsVersion, listSettingsVersions, saveSettingsVersion } from "./settings-versions";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

const noQueue = { enqueue: async () => {} };

describe("settings versions", () => {
  it("append a version per save, keep the older ones, merge thresholds, and tie each run to the version it used", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const deps = { prisma, queue: noQueue, pipelines: builtInCatalogue().pipelines };

    // No version yet: a run from the defaults names none.
    const before = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId: endpoint.id,
    });
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: before.id } })).settingsVersionId).toBeNull();

    await setPipelineDefaults(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      builtInCatalogue().pipelines,
      "hallucination",
      {
        aggregation: "max-max",
      },
    );
    const v2 = await saveSettingsVersion(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      builtInCatalogue().pipelines,
      "hallucination",
      {
        thresholds: { inconsistency: 7 },
        note: "tuned",
      },
    );
    expect(v2).toMatchObject({ number: 2, thresholds: { inconsistency: 7 }, note: "tuned", createdById: owner.userId });
    // Thresholds only: the settings are the previous version's.
    expect(v2.settings).toMatchObject({ aggregation: "max-max" });
    const v3 = await setPipelineDefaults(
      prisma,
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      builtInCatalogue().pipelines,
      "hallucination",
      {
        aggregation: "mean-mean",
      },
    );
    expect(v3).toMatchObject({ aggregation: "mean-mean" });
    const latest = await latestSettingsVersion(prisma, projectId, "hallucination");
    // A later save of settings keeps the tuned threshold.
    expect(latest).toMatchObject({ number: 3, thresholds: { inconsistency: 7 } });
    expect(
      (await projectPipelineDefaults(prisma, await projectAccess(prisma, owner, projectId, "project.view")))
        .hallucination,
    ).toMatchObject({
      aggregation: "mean-mean",
    });

    // Every version is listed, newest first, to any member; the first is still as saved.
    const versions = await listSettingsVersions(
      prisma,
      await projectAccess(prisma, viewer, projectId, "project.view"),
      "hallucination",
    );
    expect(versions.map((v) => v.number)).toEqual([3, 2, 1]);
    expect(versions[2]!.settings).toMatchObject({ aggregation: "max-max" });
    expect(versions[2]!.thresholds).toEqual({});
    await expect(projectAccess(prisma, viewer, projectId, "runs.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      saveSettingsVersion(
        prisma,
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        builtInCatalogue().pipelines,
        "no_such_pipeline",
        {
          thresholds: { x: 1 },
        },
      ),
    ).rejects.toThrow(/Unknown pipeline/);

    // A run from the defaults records the latest version; one with its own settings records none.
    const fromDefaults = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId: endpoint.id,
    });
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: fromDefaults.id } })).settingsVersionId).toBe(
      latest!.id,
    );
    const own = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: "hallucination",
      endpointId: endpoint.id,
      videoIds,
      settings: { aggregation: "max-max" },
    });
    expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: own.id } })).settingsVersionId).toBeNull();
  });
});
