import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { makeUser } from "../../testkit/testing/fixtures";
import { createProject } from "./projects";
import { usedTaskFolderIds } from "./used-task-folders";

/* Which tasks a project uses, for the navigation bar: its runs' pipelines, its saved run defaults, its label sets' formats. */
describe("the task folders a project uses", () => {
  it("are none for a new project, then those of its runs, saved defaults and label sets", async () => {
    const owner = await makeUser();
    const projectId = (await createProject(prisma, owner, { name: "VBench only" })).id;
    expect([...(await usedTaskFolderIds(prisma, projectId))]).toEqual([]);

    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    await prisma.judgeRun.create({
      data: { projectId, pipeline: "vbench2", endpointId: endpoint.id, createdById: owner.userId, status: "done" },
    });
    expect([...(await usedTaskFolderIds(prisma, projectId))]).toEqual(["vbench2"]);

    await prisma.project.update({
      where: { id: projectId },
      data: { judgeSettings: { hallucination: { aggregation: "max" } } },
    });
    expect([...(await usedTaskFolderIds(prisma, projectId))].sort()).toEqual(["hallucination", "vbench2"]);

    // Another project's runs do not count.
    const other = (await createProject(prisma, owner, { name: "Other" })).id;
    expect([...(await usedTaskFolderIds(prisma, other))]).toEqual([]);
  });
});
