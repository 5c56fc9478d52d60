/**
 * Issue 66 §4–5: the votes rankings and agreement read, from the database, page by page; a judge run's answers in
 * both orders for the judge-trust figures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { projectAccess, type ProjectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { Prisma } from "../generated/prisma/client";
import { pairSetProject } from "../../testkit/testing/pair-set-fixtures";
import { storeVerdicts, type VerdictRow } from "../../testkit/testing/pair-verdict-rows";
import { createPairSet } from "./pair-sets/create-pair-set";
import { createPairSetSchema } from "./pair-sets/create-pair-set.types";
import { loadJudgeAnswers, loadVotes, streamVotes } from "./votes";
import { VERDICTS } from "./verdicts";

let project: Awaited<ReturnType<typeof pairSetProject>>;
let viewer: ProjectAccess<"project.view">;
let setId: string;
let pairs: { id: string; prompt: string; generatorA: string; generatorB: string; honeypot: unknown }[];

beforeAll(async () => {
  project = await pairSetProject();
  const owner = await projectAccess(prisma, project.owner, project.projectId, "pairs.manage");
  viewer = await projectAccess(prisma, project.viewer, project.projectId, "project.view");
  const made = await createPairSet(
    prisma,
    owner,
    createPairSetSchema.parse({ name: "votes", honeypots: { count: 2 } }),
  );
  setId = made.pairSet.id;
  pairs = await prisma.pair.findMany({ where: { pairSetId: setId }, orderBy: { position: "asc" } });
});

describe("loadVotes", () => {
  it("reads votes with their pair's prompt and generators, withdrawn left out, honeypots marked, filtered by aspect and rater", async () => {
    const honeypot = pairs.find((p) => p.honeypot !== null)!;
    const plain = pairs.find((p) => p.honeypot === null)!;
    await storeVerdicts([
      { pairId: plain.id, aspect: "overall", raterId: "u1", verdict: "A", aShownOn: "right", strength: 2 },
      { pairId: plain.id, aspect: "physics", raterId: "u1", verdict: "tie_bad" },
      { pairId: plain.id, aspect: "overall", raterId: "u2", verdict: "B", withdrawn: true },
      { pairId: plain.id, aspect: "overall", raterId: "run:r", raterKind: "judge", verdict: "B", aShownOn: null },
      { pairId: honeypot.id, aspect: "overall", raterId: "u1", verdict: "B" },
    ]);
    const all = await loadVotes(prisma, viewer, { pairSetId: setId });
    expect(all).toHaveLength(4);
    const overall = await loadVotes(prisma, viewer, {
      pairSetId: setId,
      aspect: "overall",
      raters: { kinds: ["reviewer"] },
    });
    expect(overall).toHaveLength(2);
    expect(overall.find((v) => v.pairId === plain.id)).toEqual({
      pairId: plain.id,
      prompt: plain.prompt,
      aspect: "overall",
      generatorA: plain.generatorA,
      generatorB: plain.generatorB,
      raterId: "u1",
      raterKind: "reviewer",
      verdict: "A",
      strength: 2,
      aShownOn: "right",
      msToVerdict: null,
      honeypot: false,
    });
    expect(overall.find((v) => v.pairId === honeypot.id)).toMatchObject({ honeypot: true, verdict: "B" });
    expect(await loadVotes(prisma, viewer, { pairSetId: setId, raters: { ids: ["run:r"] } })).toMatchObject([
      { raterKind: "judge", aShownOn: null },
    ]);
    expect(await loadVotes(prisma, viewer, { pairSetId: setId, aspect: "all" })).toHaveLength(4);
  });

  it("reads more verdicts than a page holds, page by page, each once", async () => {
    const other = await pairSetProject();
    const owner = await projectAccess(prisma, other.owner, other.projectId, "pairs.manage");
    const access = await projectAccess(prisma, other.viewer, other.projectId, "project.view");
    const set = await createPairSet(prisma, owner, createPairSetSchema.parse({ name: "many" }));
    const ids = (await prisma.pair.findMany({ where: { pairSetId: set.pairSet.id } })).map((p) => p.id);
    const rows: VerdictRow[] = [];
    for (let rater = 0; rater < 320; rater++)
      for (const pairId of ids)
        for (const aspect of ["overall", "physics"])
          rows.push({ pairId, aspect, raterId: `r${rater}`, verdict: VERDICTS[(rater + rows.length) % 4]! });
    for (let start = 0; start < rows.length; start += 5000) await storeVerdicts(rows.slice(start, start + 5000));
    expect(rows.length).toBe(11_520);
    const votes = await loadVotes(prisma, access, { pairSetId: set.pairSet.id });
    expect(votes).toHaveLength(11_520);
    expect(new Set(votes.map((v) => `${v.pairId}|${v.aspect}|${v.raterId}`)).size).toBe(11_520);
    const pages: number[] = [];
    for await (const page of streamVotes(prisma, access, {
      pairSetId: set.pairSet.id,
      aspect: "physics",
      pageSize: 2000,
    }))
      pages.push(page.length);
    expect(pages).toEqual([2000, 2000, 1760]);
    // 11,520 verdicts written and read twice: a few seconds alone, several times that beside the suite's other files.
  }, 180_000);

  it("caps the votes one prompt contributes per rater and aspect: the set's cap or a given one, the earliest kept", async () => {
    const other = await pairSetProject();
    const owner = await projectAccess(prisma, other.owner, other.projectId, "pairs.manage");
    const access = await projectAccess(prisma, other.viewer, other.projectId, "project.view");
    const made = await createPairSet(
      prisma,
      owner,
      createPairSetSchema.parse({ name: "capped", votesPerPromptCap: 2, honeypots: { count: 3 } }),
    );
    const setPairs = await prisma.pair.findMany({
      where: { pairSetId: made.pairSet.id },
      orderBy: { position: "asc" },
    });
    const rows: VerdictRow[] = setPairs.map((p) => ({ pairId: p.id, aspect: "overall", raterId: "u", verdict: "A" }));
    rows.push(
      ...setPairs.slice(0, 4).map((p) => ({ pairId: p.id, aspect: "physics", raterId: "u", verdict: "B" as const })),
    );
    await storeVerdicts(rows);
    const plain = setPairs.filter((p) => p.honeypot === null);
    const load = (capPerPrompt?: "set" | number) =>
      loadVotes(prisma, access, { pairSetId: made.pairSet.id, aspect: "overall", capPerPrompt });
    expect(await load()).toHaveLength(21);
    const capped = await load("set");
    // 3 prompts × 2 kept, and the 3 honeypots uncapped.
    expect(capped.filter((v) => !v.honeypot)).toHaveLength(6);
    expect(capped.filter((v) => v.honeypot)).toHaveLength(3);
    for (const prompt of new Set(plain.map((p) => p.prompt)))
      expect(capped.filter((v) => !v.honeypot && v.prompt === prompt)).toHaveLength(2);
    const byId = await prisma.pairVerdict.findMany({
      where: { pairSetId: made.pairSet.id, aspect: "overall", pair: { honeypot: { equals: Prisma.DbNull } } },
      orderBy: { id: "asc" },
      select: { pairId: true, pair: { select: { prompt: true } } },
    });
    const earliest = [...new Set(byId.map((v) => v.pair.prompt))].flatMap((prompt) =>
      byId
        .filter((v) => v.pair.prompt === prompt)
        .slice(0, 2)
        .map((v) => v.pairId),
    );
    expect(
      capped
        .filter((v) => !v.honeypot)
        .map((v) => v.pairId)
        .sort(),
    ).toEqual(earliest.sort());
    expect((await load(1)).filter((v) => !v.honeypot)).toHaveLength(3);
  });

  it("another project's set is not found", async () => {
    const other = await pairSetProject();
    const stranger = await projectAccess(prisma, other.viewer, other.projectId, "project.view");
    await expect(loadVotes(prisma, stranger, { pairSetId: setId })).rejects.toMatchObject({ status: 404 });
  });
});

describe("loadJudgeAnswers", () => {
  it("gives both orders per pair and aspect, in position order, a missing label as a null verdict", async () => {
    const endpoint = await prisma.judgeEndpoint.create({
      data: {
        projectId: project.projectId,
        name: "judge",
        baseUrl: "http://127.0.0.1:1/v1",
        model: "m",
        createdById: project.owner.userId,
      },
    });
    const run = await prisma.judgeRun.create({
      data: {
        projectId: project.projectId,
        pipeline: "pairwise",
        endpointId: endpoint.id,
        createdById: project.owner.userId,
        pairSetId: setId,
      },
    });
    const [p0, p1] = pairs;
    await prisma.pairJudgeAnswer.createMany({
      data: [
        { runId: run.id, pairId: p1!.id, aspect: "overall", order: "BA", verdict: "A", strength: 1, answer: "[[B>A]]" },
        { runId: run.id, pairId: p0!.id, aspect: "overall", order: "AB", verdict: "A", strength: 1, answer: "[[A>B]]" },
        { runId: run.id, pairId: p0!.id, aspect: "overall", order: "BA", verdict: null, answer: "no verdict label" },
        { runId: run.id, pairId: p0!.id, aspect: "physics", order: "AB", verdict: "tie_good", answer: "[[A=B=good]]" },
      ],
    });
    const answers = await loadJudgeAnswers(prisma, viewer, run.id);
    expect(answers.map((a) => [a.pairId, a.aspect, a.ab ? a.ab.verdict : "-", a.ba ? a.ba.verdict : "-"])).toEqual([
      [p0!.id, "overall", "A", null],
      [p0!.id, "physics", "tie_good", "-"],
      [p1!.id, "overall", "-", "A"],
    ]);
    expect(answers[0]).toMatchObject({
      prompt: p0!.prompt,
      generatorA: p0!.generatorA,
      ba: { verdict: null, strength: null, answer: "no verdict label" },
    });
    const plainRun = await prisma.judgeRun.create({
      data: {
        projectId: project.projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: project.owner.userId,
      },
    });
    await expect(loadJudgeAnswers(prisma, viewer, plainRun.id)).rejects.toMatchObject({ status: 400 });
    await expect(loadJudgeAnswers(prisma, viewer, "nope")).rejects.toMatchObject({ status: 404 });
  });
});
