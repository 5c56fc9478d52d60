/**
 * The pairwise boards' reports on PostgreSQL, with pairs and verdicts written as stored rows: a board with no votes is
 * withheld with its reason (never a smaller board), a generator no one judged is listed as unrated, honeypot votes are
 * left out and counted, the cap on votes per prompt is counted, and a number never depends on who looks (owner,
 * reviewer, viewer); the rater board is the owners'.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { ForbiddenError, ValidationError } from "../../errors";
import { WithheldError } from "../../visibility/withheld";
import {
  addVerdict,
  expectedVerdict,
  seedBoardProject,
  type BoardSeed,
} from "../../../testkit/pairwise/board-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { pairwiseAgreement } from "./agreement";
import { pairwiseLeaderboard } from "./leaderboard";
import { pairSetList, pairSetOverview } from "./pair-set-overview";
import { raterBoard } from "./raters";
import { pairwiseLeaderboardQuerySchema, type RaterBoard } from "./reports.types";

let owner: Actor;
let reviewer: Actor;
let second: Actor;
let viewer: Actor;

beforeAll(async () => {
  [owner, reviewer, second, viewer] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
});

const seedProject = () => seedBoardProject(prisma, { owner, reviewers: [reviewer, second], viewer });
const query = (extra: Record<string, string> = {}) =>
  pairwiseLeaderboardQuerySchema.parse({ draws: "0", minVotes: "3", ...extra });

/** Both reviewers and the judge say the better-listed generator wins on every judged pair; the second reviewer ties one. */
async function voteEverywhere(seed: BoardSeed) {
  const judged = seed.pairs.filter((pair) => pair.generatorB !== "Gen D");
  for (const [i, pair] of judged.entries()) {
    const verdict = expectedVerdict(pair.generatorA, pair.generatorB);
    await addVerdict(
      prisma,
      seed,
      pair.id,
      { kind: "reviewer", userId: reviewer.userId, aShownOn: i % 2 ? "left" : "right" },
      verdict,
    );
    await addVerdict(
      prisma,
      seed,
      pair.id,
      { kind: "reviewer", userId: second.userId },
      i === 0 ? "tie_good" : verdict,
    );
    await addVerdict(prisma, seed, pair.id, { kind: "judge" }, verdict);
  }
}

describe("pairwiseLeaderboard", () => {
  it("withholds every board of a set with no verdict, each with its reason, and correlates nothing", async () => {
    const seed = await seedProject();
    const access = await projectAccess(prisma, owner, seed.projectId, "project.view");
    const board = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query());
    expect(board.boards.map((b) => [b.raters, b.status])).toEqual([
      ["people", "withheld"],
      [`judge:${seed.runId}`, "withheld"],
    ]);
    expect(board.boards[0]).toMatchObject({ reason: "No person has given a verdict here yet: no ranking to show." });
    expect(board.correlations).toEqual([
      expect.objectContaining({ correlation: null, reason: "One of the two boards has no ranking." }),
    ]);
    expect(board.generators).toEqual(["Gen A", "Gen B", "Gen C", "Gen D"]);
  });

  it("gives owner, reviewer and viewer the same numbers, and lists a generator no one judged as unrated", async () => {
    const seed = await seedProject();
    await voteEverywhere(seed);
    const boards = await Promise.all(
      [owner, reviewer, viewer].map(async (actor) =>
        pairwiseLeaderboard(
          prisma,
          await projectAccess(prisma, actor, seed.projectId, "project.view"),
          seed.pairSetId,
          query(),
        ),
      ),
    );
    expect(boards[1]).toEqual(boards[0]);
    expect(boards[2]).toEqual(boards[0]);
    const [people, judge] = boards[0]!.boards as [RaterBoard, RaterBoard];
    expect(people.status).toBe("ranked");
    if (people.status !== "ranked" || judge.status !== "ranked") throw new Error("both boards ranked");
    expect(people.ranking.generators).toEqual(["Gen A", "Gen B", "Gen C"]);
    expect(people.ranking.unrated).toEqual(["Gen D"]);
    expect(people.ranking.votes).toBe(36);
    expect(judge.ranking.votes).toBe(18);
    expect(boards[0]!.correlations[0]!.correlation!.kendallTau).toBe(1);
  });

  it("leaves honeypot votes out and says how many; a board with only honeypot votes is withheld and says why", async () => {
    const seed = await seedProject();
    const access = await projectAccess(prisma, viewer, seed.projectId, "project.view");
    await addVerdict(prisma, seed, seed.honeypotPairId, { kind: "reviewer", userId: reviewer.userId }, "A");
    const only = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query());
    expect(only.honeypotPairs).toBe(1);
    expect(only.boards[0]).toMatchObject({ status: "withheld", honeypotVotesLeftOut: 1 });
    expect(only.boards[0]).toMatchObject({ reason: expect.stringContaining("honeypot") });
    await addVerdict(prisma, seed, seed.pairs[0]!.id, { kind: "reviewer", userId: reviewer.userId }, "A");
    const ranked = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query());
    expect(ranked.boards[0]).toMatchObject({ status: "ranked", honeypotVotesLeftOut: 1 });
    if (ranked.boards[0]!.status !== "ranked") throw new Error("ranked");
    expect(ranked.boards[0]!.ranking.votes).toBe(1);
  });

  it("applies the set's cap on votes per prompt and counts the votes it drops", async () => {
    const seed = await seedProject();
    await voteEverywhere(seed);
    await prisma.pairSet.update({ where: { id: seed.pairSetId }, data: { votesPerPromptCap: 2 } });
    const access = await projectAccess(prisma, owner, seed.projectId, "project.view");
    const board = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query());
    // Each prompt has three judged pairs: each rater keeps two of them, so 6 prompts × 2 reviewers × 1 vote drop.
    expect(board.boards[0]).toMatchObject({ status: "ranked", cappedVotesDropped: 12 });
  });

  it("refuses an aspect the set does not have and a name that could never be one", async () => {
    const seed = await seedProject();
    const access = await projectAccess(prisma, owner, seed.projectId, "project.view");
    await expect(pairwiseLeaderboard(prisma, access, seed.pairSetId, query({ aspect: "motion" }))).rejects.toThrow(
      ValidationError,
    );
    expect(pairwiseLeaderboardQuerySchema.safeParse({ aspect: "__proto__" }).success).toBe(false);
    expect(pairwiseLeaderboardQuerySchema.safeParse({ raters: "judge:" }).success).toBe(false);
    expect(pairwiseLeaderboardQuerySchema.safeParse({ draws: "-1" }).success).toBe(false);
  });

  it("withholds a blind set's boards from a reviewer with pairs left there, whole, until they are done", async () => {
    const seed = await seedProject();
    await voteEverywhere(seed);
    await prisma.pairAssignment.create({
      data: { pairId: seed.pairs[0]!.id, pairSetId: seed.pairSetId, reviewerId: second.userId, aShownOn: "left" },
    });
    const asSecond = await projectAccess(prisma, second, seed.projectId, "project.view");
    const withheld = pairwiseLeaderboard(prisma, asSecond, seed.pairSetId, query());
    await expect(withheld).rejects.toThrow(WithheldError);
    await expect(withheld).rejects.toThrow('"Four generators" blind');
    await expect(pairwiseAgreement(prisma, asSecond, seed.pairSetId, { draws: 0, seed: 1 })).rejects.toThrow(
      WithheldError,
    );
    // The owner, who reviews nothing here, sees it; so does the reviewer once every pair has its reviewer.
    await pairwiseLeaderboard(
      prisma,
      await projectAccess(prisma, owner, seed.projectId, "project.view"),
      seed.pairSetId,
      query(),
    );
    await prisma.pairAssignment.updateMany({ where: { reviewerId: second.userId }, data: { status: "done" } });
    await prisma.pair.updateMany({ where: { pairSetId: seed.pairSetId }, data: { doneCount: 1 } });
    const board = await pairwiseLeaderboard(prisma, asSecond, seed.pairSetId, query());
    expect(board.boards[0]!.status).toBe("ranked");
  });

  it("ranks an imported label set's votes on a board of its own beside people's, named, and pools them in all", async () => {
    const seed = await seedProject();
    await voteEverywhere(seed);
    const labelSet = await prisma.labelSet.create({
      data: {
        projectId: seed.projectId,
        name: "Arena battles",
        format: "arena",
        fileName: "battles.jsonl",
        sha256: "0".repeat(64),
        importedById: owner.userId,
      },
    });
    for (const pair of seed.pairs.slice(0, 3))
      await prisma.pairVerdict.create({
        data: {
          projectId: seed.projectId,
          pairSetId: seed.pairSetId,
          pairId: pair.id,
          aspect: "overall",
          raterKind: "label_set",
          raterId: `labelset:${labelSet.id}:anno1`,
          verdict: "B",
          labelSetId: labelSet.id,
        },
      });
    const access = await projectAccess(prisma, viewer, seed.projectId, "project.view");
    const board = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query());
    expect(board.labelSets).toEqual([{ id: labelSet.id, label: "Arena battles" }]);
    expect(board.boards.map((b) => b.label)).toEqual([
      "People",
      expect.stringContaining("stub-vision"),
      "Label set: Arena battles",
    ]);
    expect(board.boards[2]).toMatchObject({ status: "ranked", ranking: expect.objectContaining({ votes: 3 }) });
    const all = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query({ raters: "all" }));
    expect(all.boards[0]).toMatchObject({ status: "ranked", ranking: expect.objectContaining({ votes: 36 + 18 + 3 }) });
    const agreement = await pairwiseAgreement(prisma, access, seed.pairSetId, { draws: 0, seed: 1 });
    expect(agreement.raterNames[`labelset:${labelSet.id}:anno1`]).toBe("Arena battles · anno1");
  });

  it("ranks a generator named __proto__ as any other name", async () => {
    const seed = await seedProject();
    await prisma.pair.updateMany({
      where: { pairSetId: seed.pairSetId, generatorA: "Gen A" },
      data: { generatorA: "__proto__" },
    });
    await voteEverywhere(seed);
    const access = await projectAccess(prisma, owner, seed.projectId, "project.view");
    const board = await pairwiseLeaderboard(prisma, access, seed.pairSetId, query());
    expect(board.generators).toContain("__proto__");
    if (board.boards[0]!.status !== "ranked") throw new Error("ranked");
    expect(board.boards[0]!.ranking.ratings.map((r) => r.generator)).toContain("__proto__");
  });

  it("does not find a set of another project", async () => {
    const seed = await seedProject();
    const other = await seedProject();
    const access = await projectAccess(prisma, owner, other.projectId, "project.view");
    await expect(pairwiseLeaderboard(prisma, access, seed.pairSetId, query())).rejects.toThrow("No such pair set.");
  });
});

describe("pairwiseAgreement", () => {
  it("compares the judge and each person with the people per aspect, the same for every role, with the noise line", async () => {
    const seed = await seedProject();
    await voteEverywhere(seed);
    const results = await Promise.all(
      [owner, reviewer, viewer].map(async (actor) =>
        pairwiseAgreement(prisma, await projectAccess(prisma, actor, seed.projectId, "project.view"), seed.pairSetId, {
          draws: 200,
          seed: 1,
        }),
      ),
    );
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    const [overall, physics] = results[0]!.aspects;
    expect(physics).toMatchObject({ aspect: "physics", rows: [], withheld: "No verdict on this aspect yet." });
    const judgeRow = overall!.rows.find((row) => row.rater === `run:${seed.runId}` && row.reference === "people");
    // 18 judged pairs; the one the two people split on may have no pooled reference.
    expect(judgeRow!.agreement.accuracy4.n).toBeGreaterThanOrEqual(17);
    expect(judgeRow!.agreement.accuracy4.value).toBe(1);
    expect(overall!.noise).toEqual([expect.objectContaining({ judge: `run:${seed.runId}`, within: true })]);
    expect(results[0]!.raterNames[`run:${seed.runId}`]).toContain("stub-vision @ stub");
  });
});

describe("raterBoard", () => {
  it("gives owners each rater's honeypots, left rate, time and an always-same flag; reviewers may not ask", async () => {
    const seed = await seedProject();
    for (const pair of seed.pairs.slice(0, 4))
      await addVerdict(
        prisma,
        seed,
        pair.id,
        { kind: "reviewer", userId: second.userId, aShownOn: "left", ms: 2000 },
        "A",
      );
    await addVerdict(prisma, seed, seed.honeypotPairId, { kind: "reviewer", userId: second.userId }, "A");
    await addVerdict(prisma, seed, seed.pairs[0]!.id, { kind: "gold" }, "B");
    const board = await raterBoard(
      prisma,
      await projectAccess(prisma, owner, seed.projectId, "pairs.manage"),
      seed.pairSetId,
    );
    expect(board.raters).toEqual([
      expect.objectContaining({
        rater: second.userId,
        verdicts: 5,
        honeypots: { answered: 1, correct: 1 },
        gold: { answered: 1, agreed: 0 },
        leftRate: 1,
        medianMsPerVerdict: 2000,
        alwaysSame: "A",
        votesCapped: 0,
      }),
    ]);
    await expect(projectAccess(prisma, reviewer, seed.projectId, "pairs.manage")).rejects.toThrow(ForbiddenError);
  });
});

describe("pairSetList and pairSetOverview", () => {
  it("count pairs, done pairs, verdicts and runs, and plan the next pairs among the set's own", async () => {
    const seed = await seedProject();
    await addVerdict(prisma, seed, seed.pairs[0]!.id, { kind: "reviewer", userId: reviewer.userId }, "A");
    await prisma.pair.update({ where: { id: seed.pairs[0]!.id }, data: { doneCount: 1 } });
    const access = await projectAccess(prisma, viewer, seed.projectId, "project.view");
    expect(await pairSetList(prisma, access)).toEqual([
      expect.objectContaining({ id: seed.pairSetId, pairs: 25, done: 1, verdicts: 1, runs: 1 }),
    ]);
    const overview = await pairSetOverview(prisma, access, seed.pairSetId, { next: 5 });
    expect(overview.progress).toEqual([
      { aspect: "overall", label: "Overall", verdicts: 1 },
      { aspect: "physics", label: "Physics", verdicts: 0 },
    ]);
    expect(overview.honeypotPairs).toBe(1);
    expect(overview.plan.pairs).toHaveLength(5);
    expect(overview.runs).toEqual([expect.objectContaining({ id: seed.runId, trust: [] })]);
  });
});
