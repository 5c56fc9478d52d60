import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { importStepAnnotations } from "@/lib/tasks/construction/step-annotation-sets";
import { addMember } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { candidatePayload, insertCandidateSet } from "@/testkit/tasks/construction/candidate-fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import type { CandidatePayload, CandidateView } from "./candidate-views";
import {
  candidateSetDetail,
  constructionOverview,
  constructionQuerySchema,
  qaSetTargetProjects,
  summariseCandidates,
} from "./construction-overview";
import { type CuratedFields, saveCuration } from "./curation";
import { candidateFate, type FilterDecision, type FilterId } from "./filter-funnel";
import type { TransformOutcome } from "./transform-attempts";

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

const videoName = (v: number) => `A ball rolls down a ramp number ${v}-0.mp4`;

async function member(projectId: string, role: "reviewer" | "viewer") {
  const user = await makeUser();
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: user.email,
    role,
  });
  return user;
}

/** A project with 3 videos, an imported clip set, and a candidate set inserted as the generation would store it. */
async function constructionProject() {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 1 });
  const steps = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ start: i * 10, end: (i + 1) * 10, text: `step ${i + 1}` }));
  const file = {
    fileName: "steps.jsonl",
    bytes: new TextEncoder().encode(
      [
        { video: videoName(0), theme: "Make a mask", dataset: "hirest", steps: steps(3) },
        { video: videoName(1), theme: "Pasta", dataset: "youcook2", steps: steps(4) },
        { video: videoName(2), theme: "Cook", dataset: "generic", steps: steps(2) },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    ),
  };
  const clips = await importStepAnnotations(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    file,
    { name: "Steps" },
  );
  const specs: [number, CandidatePayload["dataset"]][] = [
    [0, "hirest"],
    [0, "hirest"],
    [1, "youcook2"],
    [1, "youcook2"],
    [1, "youcook2"],
    [2, "generic"],
  ];
  const { setId, itemIds } = await insertCandidateSet(
    prisma,
    owner,
    projectId,
    videoIds,
    specs.map(([video, dataset], i) => ({
      externalId: `c${i}`,
      video,
      dataset,
      question: `Question ${i}?`,
      answer: `answer to Question ${i}?`,
    })),
    "Candidates",
  );
  return { projectId, videoIds, clipSetId: clips.set.id!, candidateSetId: setId, itemIds };
}

const query = (raw: Record<string, string> = {}) => constructionQuerySchema.parse(raw);

describe("constructionOverview", () => {
  it("lists the clip sets with clips by dataset and the candidate sets, and says what each role may do", async () => {
    const { projectId, clipSetId, candidateSetId } = await constructionProject();
    const overview = await constructionOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"));
    expect(overview.clipSets).toEqual([
      expect.objectContaining({
        id: clipSetId,
        name: "Steps",
        clips: 3,
        videos: 3,
        clipsByDataset: { hirest: 1, youcook2: 1, generic: 1 },
        runs: [],
      }),
    ]);
    expect(overview.candidateSets).toEqual([
      expect.objectContaining({ id: candidateSetId, name: "Candidates", candidates: 6, runs: [] }),
    ]);
    expect(overview.may).toEqual({ importAnnotations: true, startRuns: true, restore: true, export: true });

    const reviewer = await member(projectId, "reviewer");
    expect(
      (await constructionOverview(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"))).may,
    ).toEqual({
      importAnnotations: false,
      startRuns: false,
      restore: true,
      export: true,
    });
    const viewer = await member(projectId, "viewer");
    const seen = await constructionOverview(prisma, await projectAccess(prisma, viewer, projectId, "project.view"));
    expect(seen.may).toEqual({ importAnnotations: false, startRuns: false, restore: false, export: true });
    expect(seen.clipSets.map((s) => s.id)).toEqual([clipSetId]);
  });

  it("ties qa_generate runs to the clip set whose clips they judge, and qa_construct runs to their candidate set", async () => {
    const { projectId, videoIds, clipSetId, candidateSetId } = await constructionProject();
    const endpoint = await prisma.judgeEndpoint.create({
      data: {
        projectId,
        name: "stub",
        baseUrl: "http://127.0.0.1:1/v1",
        model: "stub-model",
        createdById: owner.userId,
      },
    });
    const clip = await prisma.item.findFirstOrThrow({ where: { setId: clipSetId }, orderBy: { externalId: "asc" } });
    // Rows as the runs API stores them (the pipelines come from another branch; the page reads only these rows).
    const generate = await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "qa_generate",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "running",
        items: { create: { itemId: clip.id, videoId: clip.videoId, position: 0 } },
      },
    });
    const construct = await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "qa_construct",
        endpointId: endpoint.id,
        createdById: owner.userId,
        settings: { candidateSetId },
      },
    });
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        items: { create: { itemId: clip.id, videoId: videoIds[0]!, position: 0 } },
      },
    });
    const overview = await constructionOverview(prisma, await projectAccess(prisma, owner, projectId, "project.view"));
    expect(overview.clipSets[0]!.runs).toEqual([
      expect.objectContaining({
        id: generate.id,
        pipeline: "qa_generate",
        status: "running",
        endpoint: { name: "stub", model: "stub-model" },
      }),
    ]);
    expect(overview.candidateSets[0]!.runs.map((r) => r.id)).toEqual([construct.id]);
  });

  it("answers 404 to a non-member, for the overview and for a candidate set", async () => {
    const { projectId } = await constructionProject();
    const outsider = await makeUser();
    await expect(projectAccess(prisma, outsider, projectId, "project.view")).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("candidateSetDetail", () => {
  it("counts every generated candidate by dataset, lists them with their fate and curation, filters and refuses another project's set", async () => {
    const { projectId, candidateSetId, itemIds } = await constructionProject();
    const viewer = await member(projectId, "viewer");
    const detail = await candidateSetDetail(
      prisma,
      await projectAccess(prisma, viewer, projectId, "project.view"),
      candidateSetId,
      query(),
    );
    expect(detail.total).toBe(6);
    expect(detail.funnel[0]).toMatchObject({
      id: "generated",
      kept: 6,
      keptByDataset: { hirest: 2, youcook2: 3, generic: 1 },
      keptByCategory: { "(not categorised)": 6 },
    });
    // No construct run yet: every candidate waits at the first filter.
    expect(detail.funnel[1]).toMatchObject({ id: "blind", kept: 0, removed: 0, pending: 6 });
    expect(detail.transformation).toEqual({ transformed: 0, could_not_transform: 0, in_progress: 0, not_started: 6 });
    expect(detail.datasets).toEqual(["generic", "hirest", "youcook2"]);
    expect(detail.rows.map((r) => r.externalId)).toEqual(["c0", "c1", "c2", "c3", "c4", "c5"]);
    expect(detail.rows[0]).toMatchObject({
      question: "Question 0?",
      answer: "answer to Question 0?",
      dataset: "hirest",
      granularity: "coarse",
      fate: { state: "pending", at: "blind" },
      curation: { status: "pending", accepts: 0, rejects: 0 },
    });

    const fieldsOf = (p: Prisma.JsonValue): CuratedFields => ({
      question: (p as unknown as CandidatePayload).question,
      options: null,
      answer: (p as unknown as CandidatePayload).answer,
      category: null,
    });
    const [a, b] = [await member(projectId, "reviewer"), await member(projectId, "reviewer")];
    await saveCuration(
      prisma,
      await projectAccess(prisma, a, projectId, "scores.review"),
      { itemId: itemIds.c2!, decision: "accept" },
      fieldsOf,
    );
    await saveCuration(
      prisma,
      await projectAccess(prisma, b, projectId, "scores.review"),
      { itemId: itemIds.c2!, decision: "accept" },
      fieldsOf,
    );
    await saveCuration(
      prisma,
      await projectAccess(prisma, a, projectId, "scores.review"),
      { itemId: itemIds.c3!, decision: "reject", reason: "vague" },
      fieldsOf,
    );
    await saveCuration(
      prisma,
      await projectAccess(prisma, b, projectId, "scores.review"),
      { itemId: itemIds.c3!, decision: "accept" },
      fieldsOf,
    );
    const youcook = await candidateSetDetail(
      prisma,
      await projectAccess(prisma, viewer, projectId, "project.view"),
      candidateSetId,
      query({ dataset: "youcook2" }),
    );
    expect(youcook.matching).toBe(3);
    expect(youcook.rows.map((r) => [r.externalId, r.curation])).toEqual([
      ["c2", { status: "accepted", accepts: 2, rejects: 0 }],
      ["c3", { status: "disputed", accepts: 1, rejects: 1 }],
      ["c4", { status: "pending", accepts: 0, rejects: 0 }],
    ]);
    expect(
      (
        await candidateSetDetail(
          prisma,
          await projectAccess(prisma, viewer, projectId, "project.view"),
          candidateSetId,
          query({ fate: "removed" }),
        )
      ).matching,
    ).toBe(0);

    const other = await constructionProject();
    await expect(
      candidateSetDetail(
        prisma,
        await projectAccess(prisma, owner, projectId, "project.view"),
        other.candidateSetId,
        query(),
      ),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

function view(
  id: string,
  dataset: CandidatePayload["dataset"],
  category: string | null,
  decisions: Partial<Record<FilterId, FilterDecision>>,
  extra: { restoredFrom?: FilterId; transform?: TransformOutcome } = {},
): CandidateView {
  return {
    itemId: id,
    externalId: id,
    setId: "set",
    videoId: "video",
    payload: candidatePayload("v.mp4", {
      externalId: id,
      video: 0,
      dataset,
      question: `Q ${id}?`,
      answer: `answer to Q ${id}?`,
    }),
    dataset,
    category,
    decisions,
    restoredFrom: extra.restoredFrom ?? null,
    restored: extra.restoredFrom ? [extra.restoredFrom] : [],
    fate: candidateFate({ category, dataset, decisions, restoredFrom: extra.restoredFrom ?? null }),
    transform: extra.transform ?? null,
    attempts: extra.transform ? 1 : 0,
  };
}

describe("summariseCandidates", () => {
  const keep: FilterDecision = { removed: false, reason: "ok" };
  const drop = (reason: string): FilterDecision => ({ removed: true, reason });
  const all = { blind: keep, hallucination: keep, tricky: keep, unspecific: keep };
  const transformed = (wrong: string[]): TransformOutcome => ({ state: "transformed", attempt: 1, wrong });
  const views = [
    view("a", "hirest", "Step Sequencing", { blind: drop("answered without the video") }),
    view("b", "hirest", "Step Sequencing", all, { transform: transformed(["w1", "w2", "w3", "w4"]) }),
    view("c", "youcook2", "Past Step Recall", { blind: keep, hallucination: drop("not in the steps") }),
    view("d", "youcook2", "Past Step Recall", { blind: keep, hallucination: keep }),
    view(
      "e",
      "youcook2",
      "Step Sequencing",
      { blind: drop("blind"), hallucination: keep, tricky: keep, unspecific: keep },
      { restoredFrom: "blind", transform: { state: "could_not_transform", attempts: 10, lastReason: "x" } },
    ),
    view("f", "ego4d-goalstep", null, all, { transform: { state: "in_progress", nextAttempt: 2 } }),
  ];

  it("counts what each filter keeps, removes and has not decided, by category and dataset, with a restored candidate kept", () => {
    const summary = summariseCandidates(views, query());
    const stage = (id: string) => summary.funnel.find((s) => s.id === id)!;
    expect(stage("generated")).toMatchObject({
      kept: 6,
      keptByDataset: { hirest: 2, youcook2: 3, "ego4d-goalstep": 1 },
    });
    expect(stage("blind")).toMatchObject({
      kept: 5,
      removed: 1,
      pending: 0,
      keptByCategory: { "Step Sequencing": 2, "Past Step Recall": 2, "(not categorised)": 1 },
    });
    expect(stage("hallucination")).toMatchObject({
      kept: 4,
      removed: 1,
      pending: 0,
      keptByDataset: { hirest: 1, youcook2: 2, "ego4d-goalstep": 1 },
    });
    expect(stage("tricky")).toMatchObject({ kept: 3, removed: 0, pending: 1 });
    expect(stage("unspecific")).toMatchObject({
      kept: 3,
      removed: 0,
      pending: 0,
      keptByCategory: { "Step Sequencing": 2, "(not categorised)": 1 },
    });
    expect(summary.transformation).toEqual({ transformed: 1, could_not_transform: 1, in_progress: 1, not_started: 3 });
    expect(Object.values(summary.letters).reduce((s, n) => s + n, 0)).toBe(1);
    expect(summary.categories).toEqual(["(not categorised)", "Past Step Recall", "Step Sequencing"]);
  });

  it("filters the list by fate, filter, category and dataset", () => {
    const ids = (raw: Record<string, string>) => summariseCandidates(views, query(raw)).shown.map((v) => v.itemId);
    expect(ids({ fate: "removed" })).toEqual(["a", "c"]);
    expect(ids({ fate: "removed", filter: "hallucination" })).toEqual(["c"]);
    expect(ids({ fate: "pending" })).toEqual(["d"]);
    expect(ids({ filter: "tricky" })).toEqual(["d"]);
    expect(ids({ fate: "kept", category: "Step Sequencing" })).toEqual(["b", "e"]);
    expect(ids({ category: "(not categorised)" })).toEqual(["f"]);
    expect(ids({ dataset: "youcook2", fate: "kept" })).toEqual(["e"]);
  });

  it("balances the correct letters of the transformed questions over A–E", () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      view(`t${i}`, "hirest", "Others", all, { transform: transformed(["w1", "w2", "w3", "w4"]) }),
    );
    expect(summariseCandidates(many, query()).letters).toEqual({ A: 2, B: 2, C: 2, D: 2, E: 2 });
  });

  it("pages the list 50 at a time, clamping a page past the end", () => {
    const many = Array.from({ length: 120 }, (_, i) => view(`p${String(i).padStart(3, "0")}`, "generic", null, {}));
    const last = summariseCandidates(many, query({ page: "9" }));
    expect([last.page, last.pageCount, last.shown.length, last.shown[0]!.itemId]).toEqual([3, 3, 20, "p100"]);
  });

  it("refuses query parameters it does not know, and unknown filters", () => {
    expect(constructionQuerySchema.safeParse({ orderBy: "x" }).success).toBe(false);
    expect(constructionQuerySchema.safeParse({ filter: "drop table" }).success).toBe(false);
    expect(constructionQuerySchema.safeParse({ fate: "kept", filter: "blind", page: "2" }).success).toBe(true);
  });
});

describe("qaSetTargetProjects", () => {
  it("lists the projects where the user may import, not those where they only review", async () => {
    const { projectId } = await constructionProject();
    const reviewer = await member(projectId, "reviewer");
    const own = await prisma.project.create({
      data: { name: "Reviewer's own", members: { create: { userId: reviewer.userId, role: "owner" } } },
    });
    expect(await qaSetTargetProjects(prisma, reviewer)).toEqual([{ id: own.id, name: "Reviewer's own" }]);
    expect((await qaSetTargetProjects(prisma, owner)).map((p) => p.id)).toContain(projectId);
  });
});
