/**
 * GET /api/v1/pair-sets/{pairSetId}/leaderboard and /agreement on PostgreSQL: a viewer reads the leaderboard as JSON,
 * CSV and LaTeX and the agreement as JSON and CSV; a withheld board has no file (a 400 that says why); bad queries are
 * 400s with the reason, and a stranger gets the 404 an unknown set gets.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { pairwiseLeaderboardAnswerSchema, pairwiseAgreementAnswerSchema } from "@/lib/pairwise/reports/reports.answers";
import { addVerdict, expectedVerdict, seedBoardProject, type BoardSeed } from "@/testkit/pairwise/board-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { GET as getAgreement } from "./[pairSetId]/agreement/route";
import { GET as getLeaderboard } from "./[pairSetId]/leaderboard/route";
import { GET as getProjectAgreement } from "../projects/[projectId]/agreement/route";

let seed: BoardSeed;
let empty: BoardSeed;
let viewerKey: string;
let strangerKey: string;

const get = (handler: typeof getLeaderboard, key: string, setId: string, query = "") =>
  handler(
    new Request(`http://x/api/v1/pair-sets/${setId}/x?${query}`, { headers: { authorization: `Bearer ${key}` } }),
    { params: Promise.resolve({ pairSetId: setId }) },
  );

beforeAll(async () => {
  const [owner, reviewer, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  seed = await seedBoardProject(prisma, { owner, reviewers: [reviewer], viewer }, "Boards API");
  empty = await seedBoardProject(prisma, { owner, reviewers: [reviewer], viewer }, "Boards API, no votes");
  for (const pair of seed.pairs.filter((p) => p.generatorB !== "Gen D")) {
    const verdict = expectedVerdict(pair.generatorA, pair.generatorB);
    await addVerdict(prisma, seed, pair.id, { kind: "reviewer", userId: reviewer.userId }, verdict);
    await addVerdict(prisma, seed, pair.id, { kind: "judge" }, verdict);
  }
  viewerKey = (await createApiKey(prisma, viewer.userId, "t")).key;
  strangerKey = (await createApiKey(prisma, stranger.userId, "t")).key;
});

describe("GET /api/v1/pair-sets/{pairSetId}/leaderboard", () => {
  it("answers a viewer with people's and the judge's boards, as the answer schema says", async () => {
    const response = await get(getLeaderboard, viewerKey, seed.pairSetId, "draws=0");
    expect(response.status).toBe(200);
    const body = pairwiseLeaderboardAnswerSchema.parse(await response.json());
    expect(body.boards.map((b) => [b.label, b.status])).toEqual([
      ["People", "ranked"],
      [expect.stringContaining("stub-vision @ stub"), "ranked"],
    ]);
    expect(body.correlations[0]!.correlation!.kendallTau).toBe(1);
  });

  it("fits the Davidson tie model when asked, with its tie parameter, and refuses an unknown model", async () => {
    const davidson = await get(getLeaderboard, viewerKey, seed.pairSetId, "draws=0&tieModel=davidson");
    expect(davidson.status).toBe(200);
    const body = pairwiseLeaderboardAnswerSchema.parse(await davidson.json());
    const board = body.boards[0]!;
    expect(board.status === "ranked" && board.ranking.options.tieModel).toBe("davidson");
    expect(board.status === "ranked" && board.ranking.tieParameter).not.toBeNull();
    expect((await get(getLeaderboard, viewerKey, seed.pairSetId, "tieModel=elo")).status).toBe(400);
  });

  it("gives the ranking as CSV and LaTeX files", async () => {
    const csv = await get(getLeaderboard, viewerKey, seed.pairSetId, "draws=0&format=csv");
    expect(csv.headers.get("content-disposition")).toContain(`pairwise-${seed.pairSetId}-overall-people.csv`);
    const text = await csv.text();
    expect(text.split("\n")[1]).toContain("Gen A");
    const latex = await get(
      getLeaderboard,
      viewerKey,
      seed.pairSetId,
      "draws=0&format=latex&raters=judge:" + seed.runId,
    );
    expect(await latex.text()).toContain("\\begin{tabular}");
  });

  it("answers a withheld board's file with a 400 that says why, and bad queries with their reasons", async () => {
    const withheld = await get(getLeaderboard, viewerKey, empty.pairSetId, "format=csv");
    expect(withheld.status).toBe(400);
    expect(((await withheld.json()) as { error: { message: string } }).error.message).toContain("No person");
    for (const query of ["aspect=__proto__", "aspect=motion", "raters=judges", "draws=x", "colour=red"]) {
      const response = await get(getLeaderboard, viewerKey, seed.pairSetId, query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
  });

  it("answers a stranger and an unknown set alike: 404", async () => {
    expect((await get(getLeaderboard, strangerKey, seed.pairSetId)).status).toBe(404);
    expect((await get(getLeaderboard, viewerKey, "no-such-set")).status).toBe(404);
  });
});

describe("GET /api/v1/pair-sets/{pairSetId}/agreement", () => {
  it("answers per aspect as JSON and as CSV rows with the human-noise line", async () => {
    const json = pairwiseAgreementAnswerSchema.parse(
      await (await get(getAgreement, viewerKey, seed.pairSetId, "draws=0")).json(),
    );
    expect(json.aspects.map((a) => a.aspect)).toEqual(["overall", "physics"]);
    const csv = await (await get(getAgreement, viewerKey, seed.pairSetId, "draws=0&format=csv")).text();
    expect(csv.split("\r\n")[0]).toBe("aspect,rater,rater_name,rater_kind,reference,statistic,value,lower,upper,n");
    expect(csv).toContain("within_human_noise");
    expect((await get(getAgreement, viewerKey, seed.pairSetId, "format=xml")).status).toBe(400);
  });
});

describe("GET /api/v1/projects/{projectId}/agreement?format=csv", () => {
  it("adds each pair set's pairwise rows after the report's, in the report's columns", async () => {
    const response = await getProjectAgreement(
      new Request(`http://x/api/v1/projects/${seed.projectId}/agreement?format=csv`, {
        headers: { authorization: `Bearer ${viewerKey}` },
      }),
      { params: Promise.resolve({ projectId: seed.projectId }) },
    );
    expect(response.status).toBe(200);
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe("comparison,breakdown,group,statistic,value,ci_low,ci_high,n");
    const pairwise = lines.filter((line) => line.startsWith("pairwise:"));
    expect(pairwise).toContainEqual(
      expect.stringMatching(/^pairwise:stub-vision @ stub[^|]*\|people,pair_set:Four generators,overall,accuracy4,1,/),
    );
    expect(pairwise.every((line) => line.split(",").length === 8)).toBe(true);
  });
});
