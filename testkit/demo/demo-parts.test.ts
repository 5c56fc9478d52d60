/**
 * `npm run demo` seeds through the kit's map: each task folder's part (`demoSeed` of its kit) runs in TASK_FOLDER_IDS
 * order, a task's kit added to the list joins with no edit here, and together the parts send the running app the
 * same requests, in the same order, as the demo did when it named each task.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../lib/auth/actor";
import { prisma } from "../../lib/db/prisma";
import { TASK_KITS } from "../task-kits";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { CLIPS } from "./demo-clips";
import type { DemoSeedContext, DemoSeedPart } from "./demo-part";
import type { SeedingRequest } from "./seeding-client";
import { demoParts } from "./seed-demo-project";

/** The running app, faked: records each request and answers with made-up ids (runs finish at once). */
function fakeApp() {
  const requests: string[] = [];
  let n = 0;
  const api: SeedingRequest = async (route, init = {}) => {
    const method = init.method ?? (init.json !== undefined || init.form ? "POST" : "GET");
    const body = init.json as { pipeline?: string; name?: string } | undefined;
    const detail = body?.pipeline ?? body?.name ?? init.form?.get("name") ?? init.form?.get("model") ?? "";
    requests.push(
      `${method} ${route.replace(/\/(projects|runs|caption-sets)\/[^/]+/g, "/$1/:id")} ${String(detail)}`.trim(),
    );
    if (method === "GET") return { status: "done" };
    if (route.endsWith("/candidates")) return { setId: `set-${++n}`, count: 2 };
    if (route.endsWith("/caption-sets") || route.endsWith("/question-sets")) return { set: { id: `set-${++n}` } };
    return { id: `id-${++n}` };
  };
  return { api, requests };
}

let owner: Actor;
let projectId: string;
beforeAll(async () => {
  owner = await makeUser({ isAdmin: true });
  const project = await projectWithFramedVideos(prisma, owner, {
    videoCount: CLIPS.length,
    keyFrames: 1,
    name: "Demo parts",
  });
  projectId = project.projectId;
  for (const [i, id] of project.videoIds.entries()) {
    await prisma.video.update({
      where: { id },
      data: {
        fileName: path.basename(CLIPS[i]!.path),
        relativePath: `Demo model/${CLIPS[i]!.path}`,
        model: "Demo model",
      },
    });
  }
});

/** The first `count` demo clips as video rows in another project, as the demo's upload leaves them. */
async function insertClips(intoProjectId: string, count: number, generator = "Demo model") {
  for (const clip of CLIPS.slice(0, count)) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    await prisma.video.create({
      data: {
        projectId: intoProjectId,
        sha256: sha,
        sizeBytes: BigInt(1000),
        fileName: path.basename(clip.path),
        relativePath: `${generator}/${clip.path}`,
        storageKey: `projects/${intoProjectId}/videos/${sha}.mp4`,
        contentType: "video/mp4",
        status: "ready",
        createdById: owner.userId,
      },
    });
  }
}

describe("the demo's task parts", () => {
  it("run in TASK_FOLDER_IDS order and send the app the demo's requests", async () => {
    const { api, requests } = fakeApp();
    const logged: string[] = [];
    const uploads: number[] = [];
    const context: DemoSeedContext = {
      prisma,
      actor: owner,
      projectId,
      endpointId: "stub-endpoint",
      stubBaseUrl: "http://127.0.0.1:4010/v1",
      api,
      uploadClips: async (into, count, options) => {
        uploads.push(count);
        await insertClips(into, count, options?.generator);
      },
      log: (line) => logged.push(line),
    };
    const links = [];
    for (const part of await demoParts()) links.push(...(await part.seed(context)));
    expect(requests).toEqual([
      "POST /api/v1/projects/:id/runs hallucination",
      "POST /api/v1/projects/:id/runs hallucination",
      "POST /api/v1/projects/:id/endpoints Stub judge (simulated)",
      "POST /api/v1/projects/:id/alignments hallucination",
      "POST /api/v1/projects/:id/caption-sets Demo caption references (simulated)",
      "POST /api/v1/projects/:id/caption-sets/:id/outputs simulated-model-a captions (simulated)",
      "POST /api/v1/projects/:id/caption-sets/:id/outputs simulated-model-b captions (simulated)",
      "POST /api/v1/projects/:id/runs caption_style",
      "POST /api/v1/projects/:id/runs caption_content",
      "POST /api/v1/projects/:id/question-sets Demo questions (simulated)",
      "POST /api/v1/projects/:id/endpoints Stub guesser (simulated)",
      "POST /api/v1/projects/:id/endpoints Stub judge (simulated)",
      "POST /api/v1/projects/:id/runs qa",
      "POST /api/v1/projects/:id/runs qa",
      "POST /api/v1/projects/:id/runs qa",
      "POST /api/v1/projects/:id/runs qa_generate",
      "GET /api/v1/runs/:id",
      "POST /api/v1/runs/:id/candidates",
      "POST /api/v1/projects/:id/runs qa_construct",
      "POST /api/v1/projects/:id/prompt-lists",
      "POST /api/v1/projects/:id/endpoints Stub VLM (simulated)",
      "POST /api/v1/projects/:id/runs vbench2",
      "POST /api/v1/projects/:id/label-sets VBench's own results (simulated)",
    ]);
    // The label set is imported directly; the construction project gets three of the clips.
    expect(logged.filter((line) => /^imported the label set|^demo construction project/.test(line))).toEqual([
      'imported the label set "Demo labels (simulated)" (16 labels over 4 clips)',
      "demo construction project: 4 clips from 3 videos (hirest 1, youcook2 1, ego4d-goalstep 2)",
    ]);
    // The alignment project's 4 clips from each of two generators, three for the construction project, and three from
    // each of VBench-2.0's two generators.
    expect(uploads).toEqual([4, 4, 3, 3, 3]);
    // Two simulated reviewers' spans on the demo clips, each valid against its video's frame times (stored from the
    // clips' 24 fps when the app has not read them), agreeing in part.
    expect(logged).toContain("marked 11 spans by 2 simulated reviewers");
    const spans = await prisma.span.findMany({
      where: { projectId },
      orderBy: [{ videoId: "asc" }, { startFrame: "asc" }],
      include: { history: true },
    });
    const reviewers = await prisma.user.findMany({
      where: { email: { in: ["simulated-reviewer-a@framejury.local", "simulated-reviewer-b@framejury.local"] } },
      include: { memberships: { where: { projectId } } },
    });
    expect(reviewers.map((r) => r.memberships.map((m) => m.role))).toEqual([["reviewer"], ["reviewer"]]);
    expect(new Set(spans.map((s) => s.authorId))).toEqual(new Set(reviewers.map((r) => r.id)));
    expect(spans.every((s) => s.authorKind === "reviewer" && s.task === "hallucination" && s.version === 1)).toBe(true);
    expect(spans.every((s) => s.history.length === 1 && s.history[0]!.changedBy === s.authorId)).toBe(true);
    const times = await prisma.videoFrameTimes.findMany({ where: { video: { projectId } } });
    expect(times).toHaveLength(CLIPS.length);
    expect(times.every((t) => t.timesS.length === 72 && Math.abs(t.endS - 3) < 1e-9 && !t.variable)).toBe(true);
    const first = spans.find((s) => s.label === "d1" && s.startFrame === 30)!;
    expect(first).toMatchObject({ endFrame: 59, startS: 1.25, endS: 2.5 });
    expect(first.boxes).toHaveLength(2);
    // The alignment project: 8 labelled clips, their prompts tagged for the stub's simulated judge.
    const alignment = await prisma.project.findFirstOrThrow({
      where: { name: "Alignment demo (simulated)", members: { some: { userId: owner.userId } } },
    });
    const labelled = await prisma.humanJudgment.findMany({
      where: { projectId: alignment.id, target: "verdict" },
      select: { value: true, videoId: true },
    });
    const prompts = new Map(
      (await prisma.video.findMany({ where: { projectId: alignment.id }, select: { id: true, prompt: true } })).map(
        (v) => [v.id, v.prompt ?? ""],
      ),
    );
    expect(labelled).toHaveLength(8);
    expect(labelled.every((l) => prompts.get(l.videoId)!.includes(`[sim-verdict=${l.value}]`))).toBe(true);
    expect([...prompts.values()].filter((p) => p.includes("[sim-inflate]"))).toHaveLength(3);
    expect(logged).toContainEqual(
      expect.stringMatching(/^started an alignment of the verdict id-\d+ over 8 labelled clips$/),
    );
    const construction = await prisma.project.findFirstOrThrow({
      where: { name: "Demo — Q&A construction (simulated)", members: { some: { userId: owner.userId } } },
    });
    // No hallucination runs exist behind the fake app, so no comparison is printed; the spans' video page is.
    const vbench2 = await prisma.project.findFirstOrThrow({
      where: { name: "VBench-2.0 demo (simulated)", members: { some: { userId: owner.userId } } },
    });
    expect(links).toEqual([
      {
        label: "spans on a timeline",
        path: `/projects/${projectId}/videos/${first.videoId}`,
        note: "two simulated reviewers; the judge's as its run ends",
      },
      {
        label: "an alignment of the verdict",
        path: `/projects/${alignment.id}/alignment`,
        note: "8 labelled clips; tuned settings undo a simulated bias",
      },
      {
        label: "demo Q&A construction",
        path: `/projects/${construction.id}/construction`,
        note: "simulated step annotations",
      },
      {
        label: "demo VBench-2.0 results",
        path: `/projects/${vbench2.id}/vbench2`,
        note: "two simulated generators, three dimensions",
      },
    ]);
  });

  it("a later start over a demo seeded before it had spans marks them once", async () => {
    const demo = await projectWithFramedVideos(prisma, owner, {
      videoCount: CLIPS.length,
      keyFrames: 1,
      name: "Old demo",
    });
    for (const [i, id] of demo.videoIds.entries())
      await prisma.video.update({ where: { id }, data: { fileName: path.basename(CLIPS[i]!.path) } });
    const hallucination = await TASK_KITS.find((kit) => kit.id === "hallucination")!.demoSeed!();
    const resume = { prisma, actor: owner, projectId: demo.projectId, stubBaseUrl: "http://127.0.0.1:4010/v1" };
    const links = await hallucination.resume!(resume);
    expect(await prisma.span.count({ where: { projectId: demo.projectId } })).toBe(11);
    expect(links.map((l) => l.label)).toContain("spans on a timeline");
    await hallucination.resume!(resume);
    expect(await prisma.span.count({ where: { projectId: demo.projectId } })).toBe(11);
  });

  describe("with a task's kit added after the folders'", () => {
    const toyPart: DemoSeedPart = { seed: async ({ log }) => (log("toy part"), [{ label: "toy", path: "/toy" }]) };

    it("includes its part, last", async () => {
      const parts = await demoParts([...TASK_KITS, { id: "toy-demo", demoSeed: async () => toyPart }]);
      expect(parts).toHaveLength(6);
      expect(parts.at(-1)).toBe(toyPart);
    });
  });
});
