import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createProject } from "../../projects/projects";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { importQuestionSet, type QuestionPayload } from "@/lib/tasks/qa/question-set-import";
import { addMember } from "@/lib/projects/projects";
import { insertCandidateSet, transformedView } from "@/testkit/tasks/construction/candidate-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { MC_LETTERS } from "./balance-answer-letters";
import { loadCandidateViews } from "./candidate-views";
import { createCurationQueue, saveCandidateCuration } from "./curation-queues";
import { benchmarkLines, type ExportDecision, exportBenchmark, makeQaSet, toJsonl } from "./export-benchmark";

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

const SPECS = [
  {
    externalId: "c1",
    video: 0,
    question: "What happens after the ball is placed at the top?",
    answer: "It rolls down the ramp.",
  },
  {
    externalId: "c2",
    video: 0,
    question: "What is done last?",
    answer: "The ball is caught at the bottom.",
    granularity: "fine" as const,
  },
  { externalId: "c3", video: 1, question: "Where is the ball placed first?", answer: "At the top of the ramp." },
];

async function setup(specs = SPECS) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Export",
  });
  return { projectId, videoIds, ...(await insertCandidateSet(prisma, owner, projectId, videoIds, specs)) };
}

const accept = (curatorId: string, edits: ExportDecision["edits"] = {}, at = 0): ExportDecision => ({
  curatorId,
  decision: "accept",
  edits,
  reason: null,
  updatedAt: new Date(1_700_000_000_000 + at),
});
const lines = (bytes: string) =>
  bytes
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("the benchmark export", () => {
  it("exports the accepted questions with the curator's edits, and the QA importer takes the export unchanged", async () => {
    const { projectId, setId, itemIds } = await setup();
    const curator = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: curator.email,
      role: "reviewer",
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, curator, projectId, "scores.review"), itemIds.c1!, {
      decision: "accept",
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, curator, projectId, "scores.review"), itemIds.c2!, {
      decision: "accept",
      edits: { question: "What is done with the ball at the end?", category: "Step Sequencing" },
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, curator, projectId, "scores.review"), itemIds.c3!, {
      decision: "reject",
      reason: "answered by the theme",
    });

    // No queue over the set: N = 1.
    const exported = await exportBenchmark(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      setId,
      "open",
    );
    expect(exported.counts).toEqual({ accepted: 2, rejected: 1, disputed: 0, pending: 0 });
    expect(exported.lines.map((l) => [l.id, l.question, l.answer, l.category, l.format, l.granularity])).toEqual([
      ["c1", SPECS[0]!.question, SPECS[0]!.answer, null, "open", "coarse"],
      ["c2", "What is done with the ball at the end?", SPECS[1]!.answer, "Step Sequencing", "open", "fine"],
    ]);
    expect(exported.lines[1]!.extra).toMatchObject({
      candidateId: itemIds.c2,
      provenance: { templateId: "generic/coarse", templateHash: "0123456789abcdef", endpointModel: "stub-model" },
      filtersPassed: [],
      transformation: null,
      curators: [{ curator: curator.email, decision: "accept", edited: true }],
      edited: true,
    });
    expect(exported.lines[0]!.extra).toMatchObject({ edited: false });

    const imported = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "benchmark.jsonl",
      bytes: new TextEncoder().encode(toJsonl(exported.lines)),
    });
    const items = await prisma.item.findMany({ where: { setId: imported.set.id! }, orderBy: { externalId: "asc" } });
    expect(
      items.map((i) => [
        i.externalId,
        (i.payload as unknown as QuestionPayload).question,
        (i.payload as unknown as QuestionPayload).answer,
        (i.payload as unknown as QuestionPayload).extra,
      ]),
    ).toEqual(exported.lines.map((l) => [l.id, l.question, l.answer, l.extra]));
  });

  it("uses the queue's N: one accept of two is pending, not exported", async () => {
    const { projectId, setId, itemIds } = await setup();
    await createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      candidateSetId: setId,
      name: "Two each",
      curatorsPerQuestion: 2,
      scope: "all",
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c1!, {
      decision: "accept",
    });
    const exported = await exportBenchmark(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      setId,
      "both",
    );
    expect(exported).toMatchObject({ curatorsPerQuestion: 2, counts: { pending: 3, accepted: 0 }, lines: [] });
  });

  it("letters transformed questions over the export so each correct letter is used as often as the others, and round-trips mc lines", async () => {
    const specs = Array.from({ length: 10 }, (_, i) => ({
      externalId: `q${String(i).padStart(2, "0")}`,
      video: i % 2,
      question: `Which step comes number ${i}?`,
      answer: `Step ${i} is right.`,
    }));
    const { projectId, setId } = await setup(specs);
    const views = (
      await loadCandidateViews(prisma, await projectAccess(prisma, owner, projectId, "project.view"), setId)
    ).map((v, i) => transformedView(v, [`wrong ${i}a`, `wrong ${i}b`, `wrong ${i}c`, `wrong ${i}d`]));
    const decisions = new Map(
      views.map((v, i) => [
        v.itemId,
        [
          accept(
            "ann",
            i === 3
              ? {
                  options: {
                    A: `Step ${i} is right.`,
                    B: "edited wrong",
                    C: `wrong ${i}b`,
                    D: `wrong ${i}c`,
                    E: `wrong ${i}d`,
                  },
                }
              : {},
          ),
        ],
      ]),
    );
    const exported = benchmarkLines(views, decisions, 1, "both", () => "ann@example.test");
    const mc = exported.lines.filter((l) => l.format === "mc");
    expect(mc).toHaveLength(10);
    expect(exported.lines.filter((l) => l.format === "open")).toHaveLength(10);
    expect(exported.histogram).toEqual({ A: 2, B: 2, C: 2, D: 2, E: 2 });
    for (const line of mc) {
      const i = Number(line.id.slice(1, 3));
      expect(line.id).toBe(`${specs[i]!.externalId}:mc`);
      expect(Object.keys(line.options!)).toEqual([...MC_LETTERS]);
      expect(line.options![line.answer]).toBe(`Step ${i} is right.`);
      expect(line.extra).toMatchObject({
        transformation: { attempt: 2 },
        filtersPassed: ["blind", "hallucination", "tricky", "unspecific"],
        edited: i === 3,
      });
    }
    // The curator's edited distractor is exported.
    expect(Object.values(mc.find((l) => l.id === "q03:mc")!.options!)).toContain("edited wrong");
    // The open form of a transformed question answers with the correct option's text.
    expect(exported.lines.find((l) => l.id === "q05:open")!.answer).toBe("Step 5 is right.");

    const imported = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "mc.jsonl",
      bytes: new TextEncoder().encode(toJsonl(exported.lines)),
    });
    expect(imported.items).toMatchObject({ count: 20, byFormat: { mc: 10, open: 10 } });
    const stored = await prisma.item.findMany({ where: { setId: imported.set.id!, externalId: "q03:mc" } });
    const payload = stored[0]!.payload as unknown as QuestionPayload;
    expect([payload.format, payload.options, payload.answer]).toEqual([
      "mc",
      mc.find((l) => l.id === "q03:mc")!.options,
      mc.find((l) => l.id === "q03:mc")!.answer,
    ]);
  });

  it("makes a QA set in a project the caller may import into, and refuses one they are not a member of", async () => {
    const { projectId, setId, itemIds } = await setup();
    await saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c1!, {
      decision: "accept",
    });
    const made = await makeQaSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      await projectAccess(prisma, owner, projectId, "videos.import"),
      setId,
      {
        format: "open",
        name: "Ramp benchmark",
      },
    );
    expect(made).toMatchObject({ projectId, count: 1 });
    expect(await prisma.itemSet.findUniqueOrThrow({ where: { id: made.questionSetId } })).toMatchObject({
      kind: "questions",
      name: "Ramp benchmark",
      itemCount: 1,
    });

    const outsider = await makeUser();
    const { projectId: outsidersProject } = await projectWithFramedVideos(prisma, outsider, {
      videoCount: 1,
      keyFrames: 1,
    });
    await expect(projectAccess(prisma, owner, outsidersProject, "videos.import")).rejects.toBeInstanceOf(NotFoundError);
    expect(await prisma.itemSet.count({ where: { projectId: outsidersProject } })).toBe(0);
  });

  it("reports unknown videos in the target project and imports nothing", async () => {
    const { projectId, setId, itemIds } = await setup();
    await saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c1!, {
      decision: "accept",
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c3!, {
      decision: "accept",
    });
    // A project with only the first video's file name: the second video is unknown there.
    const { projectId: target } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const error = await makeQaSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      await projectAccess(prisma, owner, target, "videos.import"),
      setId,
      {
        format: "open",
        name: "Partial",
      },
    ).catch((e) => e);
    expect(error.status).toBe(422);
    expect(error.details.unmatched).toEqual(["Mechanics/A ball rolls down a ramp number 1-0.mp4"]);
    expect(await prisma.itemSet.count({ where: { projectId: target, kind: "questions" } })).toBe(0);
  });

  it("reads the export as JSONL lines with a reader's rights, and hides the set from strangers", async () => {
    const { projectId, setId, itemIds } = await setup();
    await saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c2!, {
      decision: "accept",
    });
    expect(
      lines(
        toJsonl(
          (await exportBenchmark(prisma, await projectAccess(prisma, owner, projectId, "export.read"), setId, "open"))
            .lines,
        ),
      ).map((l) => l.id),
    ).toEqual(["c2"]);
    const stranger = await makeUser();
    await expect(projectAccess(prisma, stranger, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
    // Through an access to another project, even the owner's own, the set is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "export.read");
    await expect(exportBenchmark(prisma, there, setId, "open")).rejects.toThrow("No such candidate set.");
  });
});
