import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { NotFoundError, ValidationError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { insertEndpoint, insertFinishedRun, insertProject } from "../../testkit/testing/raw-rows";
import { addMember } from "../projects/projects";
import { searchProject } from "./project-search";
import { projectAccess } from "../authz/permissions";

async function addVideo(projectId: string, createdById: string, fileName: string, prompt: string | null) {
  const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
  const video = await prisma.video.create({
    data: {
      projectId,
      sha256: sha,
      sizeBytes: BigInt(1000),
      fileName,
      relativePath: `clips/${fileName}`,
      storageKey: `projects/${projectId}/videos/${sha}.mp4`,
      contentType: "video/mp4",
      status: "ready",
      prompt,
      dimensions: [],
      createdById,
    },
  });
  return video.id;
}

describe("searchProject", () => {
  it("finds videos by file name and prompt, runs by their name's parts and queues by name, in one project only", async () => {
    const owner = await makeUser();
    const viewer = await makeUser();
    const projectId = await insertProject(prisma, "Search", owner.userId);
    const otherId = await insertProject(prisma, "Other", owner.userId);
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: viewer.email,
      role: "viewer",
    });
    const melting = await addVideo(projectId, owner.userId, "11.mp4", "A snowman MELTING in the sun, 100% real_time");
    const named = await addVideo(projectId, owner.userId, "snowman-dance.mp4", null);
    await addVideo(projectId, owner.userId, "12.mp4", "A cat plays the piano");
    await addVideo(otherId, owner.userId, "snowman.mp4", "A snowman in another project");
    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "lab vLLM",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "qwen2.5-vl",
      createdById: owner.userId,
    });
    const runId = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: { name: "lab vLLM", model: "qwen2.5-vl" },
    });
    await prisma.judgeRun.update({ where: { id: runId }, data: { createdAt: new Date("2026-11-23T14:05:00Z") } });
    const queue = await prisma.reviewQueue.create({
      data: { projectId, name: "Snowman verdicts", runId, scope: "verdict", createdById: owner.userId },
    });

    const snow = await searchProject(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), {
      q: " snowman ",
    });
    expect(snow.videos.map((v) => v.id).sort()).toEqual([melting, named].sort());
    expect(snow.queues).toEqual([{ id: queue.id, name: "Snowman verdicts", archived: false }]);
    expect(snow.runs).toEqual([]);

    // Every word must be in the run's name: task, model, endpoint, date.
    const runs = await searchProject(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), {
      q: "hallucination qwen 23 Nov 2026",
    });
    expect(runs.runs).toEqual([
      { id: runId, pipeline: "hallucination", name: "Hallucination · qwen2.5-vl @ lab vLLM · 23 Nov 2026 14:05" },
    ]);
    expect(
      (
        await searchProject(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), {
          q: "hallucination gpt",
        })
      ).runs,
    ).toEqual([]);

    // LIKE's wildcards are literal characters in a search.
    expect(
      (
        await searchProject(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), { q: "100%" })
      ).videos.map((v) => v.id),
    ).toEqual([melting]);
    expect(
      (await searchProject(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), { q: "a_s" }))
        .videos,
    ).toEqual([]);
    expect(
      (
        await searchProject(prisma, await projectAccess(prisma, viewer, projectId, "project.view"), { q: "real_time" })
      ).videos.map((v) => v.id),
    ).toEqual([melting]);
  });

  it("refuses an empty or over-long search and hides the project from non-members", async () => {
    const owner = await makeUser();
    const outsider = await makeUser();
    const projectId = await insertProject(prisma, "Search 2", owner.userId);
    await expect(
      searchProject(prisma, await projectAccess(prisma, owner, projectId, "project.view"), { q: "   " }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      searchProject(prisma, await projectAccess(prisma, owner, projectId, "project.view"), { q: "x".repeat(201) }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      searchProject(prisma, await projectAccess(prisma, owner, projectId, "project.view"), { q: ["a", "b"] }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(projectAccess(prisma, outsider, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });
});
