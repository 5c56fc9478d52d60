import { randomUUID } from "node:crypto";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { constructionOverview } from "@/lib/tasks/construction/construction-overview";
import { parseStepAnnotations } from "@/lib/tasks/construction/step-annotations";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { planClips } from "@/lib/tasks/construction/step-annotation-sets";
import { makeUser } from "@/testkit/testing/fixtures";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import {
  DEMO_CONSTRUCTION_ENDPOINT,
  DEMO_CONSTRUCTION_PROJECT,
  type DemoApi,
  demoStepAnnotations,
  seedConstructionProject,
  seedConstructionRuns,
} from "./demo-seed";

const videoFileNames = CLIPS.slice(0, 3).map((clip) => path.basename(clip.path)) as [string, string, string];

/** The running app is not part of these tests: any request to it fails the test. */
const noApp: DemoApi & { calls: string[] } = {
  calls: [],
  get(route) {
    this.calls.push(`GET ${route}`);
    throw new Error(`unexpected request ${route}`);
  },
  post(route) {
    this.calls.push(`POST ${route}`);
    throw new Error(`unexpected request ${route}`);
  },
};

/** The clips as the demo's upload leaves them: video rows with the demo's file names. */
async function insertDemoVideos(projectId: string, owner: Actor) {
  for (const clip of CLIPS.slice(0, 3)) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: BigInt(1000),
        fileName: path.basename(clip.path),
        relativePath: `Demo model/${clip.path}`,
        storageKey: `projects/${projectId}/videos/${sha}.mp4`,
        contentType: "video/mp4",
        status: "ready",
        createdById: owner.userId,
      },
    });
  }
}

describe("the demo's step annotations", () => {
  it("are valid HiREST, YouCook2 and Ego4D Goal-Step records; the Ego4D one trims into two clips and reports what it left out", () => {
    const parsed = parseStepAnnotations(new TextEncoder().encode(demoStepAnnotations(videoFileNames)), videoFileNames, {
      format: "jsonl",
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.annotations.map((a) => a.dataset)).toEqual(["hirest", "youcook2", "ego4d-goalstep"]);
    const plans = parsed.annotations.map(planClips);
    expect(plans.map((p) => p.clips.length)).toEqual([1, 1, 2]);
    // 16 steps of 40 s: steps 1–7 and 8–14 last 280 s each, more than 4 minutes; steps 15–16 last 80 s.
    expect(plans[2]!.clips.map((c) => [c.fromStep, c.toStep, c.start, c.end])).toEqual([
      [1, 7, 0, 280],
      [8, 14, 280, 560],
    ]);
    expect(plans[2]!.discarded).toEqual([{ fromStep: 15, toStep: 16, reason: expect.stringContaining("80s") }]);
  });
});

describe("seedConstructionProject", () => {
  let owner: Actor;
  beforeAll(async () => {
    owner = await makeUser({ isAdmin: true });
  });

  it("creates the project with its three videos, a stub endpoint and the imported clip set, starts no run while the pipelines are missing, and runs once", async () => {
    const logged: string[] = [];
    // Without the construction pipelines (as on this branch): the runs need the running app, which is not part of this test.
    const deps = {
      prisma,
      actor: owner,
      stubBaseUrl: "http://127.0.0.1:4010/v1",
      videoFileNames,
      addVideos: (projectId: string) => insertDemoVideos(projectId, owner),
      api: noApp,
      log: (line: string) => logged.push(line),
      pipelines: { qa: {} },
    };
    const seeded = await seedConstructionProject(deps);
    const project = await prisma.project.findUniqueOrThrow({
      where: { id: seeded.projectId },
      include: { videos: true, endpoints: true },
    });
    expect(project.name).toBe(DEMO_CONSTRUCTION_PROJECT);
    expect(project.videos).toHaveLength(3);
    expect(project.endpoints.map((e) => [e.name, e.baseUrl, e.model])).toEqual([
      [DEMO_CONSTRUCTION_ENDPOINT, "http://127.0.0.1:4010/v1", "stub-vision"],
    ]);

    const overview = await constructionOverview(
      prisma,
      await projectAccess(prisma, owner, seeded.projectId, "project.view"),
    );
    expect(overview.clipSets).toEqual([
      expect.objectContaining({
        id: seeded.clipSetId,
        clips: 4,
        videos: 3,
        clipsByDataset: { hirest: 1, youcook2: 1, "ego4d-goalstep": 2 },
      }),
    ]);
    expect(logged).toContain(
      "demo construction project: 4 clips from 3 videos (hirest 1, youcook2 1, ego4d-goalstep 2)",
    );

    expect(seeded.runs).toBeNull();
    expect(noApp.calls).toEqual([]);

    // The demo starts again with the stub on another port: the same project, its endpoint pointed at the new port.
    const again = await seedConstructionProject({ ...deps, stubBaseUrl: "http://127.0.0.1:4999/v1" });
    expect(again.projectId).toBe(seeded.projectId);
    expect(
      await prisma.project.count({
        where: { name: DEMO_CONSTRUCTION_PROJECT, members: { some: { userId: owner.userId } } },
      }),
    ).toBe(1);
    expect((await prisma.judgeEndpoint.findFirstOrThrow({ where: { projectId: seeded.projectId } })).baseUrl).toBe(
      "http://127.0.0.1:4999/v1",
    );
  });
});

describe("seedConstructionRuns", () => {
  it("does nothing and returns null while the engine lacks either construction pipeline", async () => {
    const target = { projectId: "p", clipSetId: "s", endpointId: "e" };
    const before = noApp.calls.length;
    expect(await seedConstructionRuns({ api: noApp, log: () => {} }, target, { qa: {} })).toBeNull();
    expect(await seedConstructionRuns({ api: noApp, log: () => {} }, target, { qa_generate: {} })).toBeNull();
    expect(noApp.calls.length).toBe(before);
  });
});
