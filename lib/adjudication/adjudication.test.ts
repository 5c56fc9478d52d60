import { beforeAll, describe, expect, it } from "vitest";
import { GET as adjudicationRoute } from "@/app/api/v1/projects/[projectId]/adjudication/route";
import { PUT as goldRoute } from "@/app/api/v1/projects/[projectId]/gold/route";
import { createApiKey } from "../auth/api-keys";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError, ValidationError } from "../errors";
import { type ExportRow, projectExport } from "../agreement/export";
import { projectAgreement } from "../agreement/load";
import { reportRows } from "../agreement/report-csv";
import { agreementQuerySchema, exportQuerySchema } from "../agreement/report-filter";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { HALLUCINATION_TASK } from "../tasks/hallucination/task";
import { ReviewConflictError, reviewScore, reviewVideoOutcome } from "../reviews/reviews";
import { adjudicationQuerySchema, adjudicationQueue, setGold } from "./adjudication";
import { reviewerDisagreement } from "./disagreement-among-reviewers";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const declared = (id: string) =>
  [...HALLUCINATION_TASK.targets, ...HALLUCINATION_TASK.metrics].find((t) => t.id === id)!;

describe("reviewerDisagreement", () => {
  it("finds a tie on a nominal target (the verdict): no majority", () => {
    expect(reviewerDisagreement(declared("verdict"), [1, 0])).toBe("tie");
    expect(reviewerDisagreement(declared("verdict"), [1, 0, 1, 0])).toBe("tie");
    // A 2–1 majority settles it; agreement is no disagreement; one reviewer is no disagreement.
    expect(reviewerDisagreement(declared("verdict"), [1, 1, 0])).toBeNull();
    expect(reviewerDisagreement(declared("verdict"), [0, 0])).toBeNull();
    expect(reviewerDisagreement(declared("verdict"), [1])).toBeNull();
  });

  it("finds a spread of at least the target's gap on graded targets (scores: 2 on 0–10; overall: 10 on 0–100)", () => {
    expect(reviewerDisagreement(declared("s1"), [3, 5])).toBe("spread");
    expect(reviewerDisagreement(declared("s1"), [3, 4])).toBeNull();
    expect(reviewerDisagreement(declared("s1"), [4, 4.5, 5.9])).toBeNull();
    expect(reviewerDisagreement(declared("s1"), [4, 7, 5])).toBe("spread");
    expect(reviewerDisagreement(declared("overall"), [50, 59])).toBeNull();
    expect(reviewerDisagreement(declared("overall"), [50, 60])).toBe("spread");
  });
});

/*
 * Three videos judged by one run. s1 at key frame 0: the judge says 8, 2, 5; verdicts yes, no, yes.
 * v0: Ann 3 and Bob 5 on s1 (spread 2 = the gap) and Ann yes, Bob no on the verdict (a tie).
 * v1: Ann 2, Bob 3 on s1 (spread 1 < 2); verdict no, no, yes (Carl): a majority.
 * v2: only Ann on s1.
 */
let owner: Actor;
let ann: Actor;
let bob: Actor;
let carl: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;

beforeAll(async () => {
  [owner, ann, bob, carl] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 1,
    name: "Adjudication",
  }));
  videoIds.sort();
  for (const actor of [ann, bob, carl])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
  const run = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [8, 2, 5][v]! }],
    outcome: (v) => ({ verdict: [true, false, true][v]!, overall: [40, 80, 50][v]! }),
  });
  runId = run.runId;
  const s1 = (v: number) => run.scoreIds.get(`${v}:static_hallucination:0:s1`)!;
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(0), { value: 3 });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), s1(0), { value: 5 });
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(1), { value: 2 });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), s1(1), { value: 3 });
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(2), { value: 5 });
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, ann, projectId, "scores.review"),
    runId,
    videoIds[0]!,
    "verdict",
    { value: 1 },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, bob, projectId, "scores.review"),
    runId,
    videoIds[0]!,
    "verdict",
    { value: 0 },
  );
  for (const [actor, value] of [
    [ann, 0],
    [bob, 0],
    [carl, 1],
  ] as const)
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, actor, projectId, "scores.review"),
      runId,
      videoIds[1]!,
      "verdict",
      { value },
    );
});

/** An API key of the actor's, for the checks the route wrappers make. */
const keyFor = async (actor: Actor) => (await createApiKey(prisma, actor.userId, "t")).key;

const queue = (params: Record<string, string> = {}, actor: Actor = owner) =>
  adjudicationQueue(prisma, actor, projectId, adjudicationQuerySchema.parse(params));
const keyOf = async (videoId: string, target: string) =>
  (await prisma.humanJudgment.findFirstOrThrow({ where: { videoId, target } })).targetKey;

describe("the adjudication queue", () => {
  it("lists exactly the tie and the spread, with each reviewer's value by email, the judge's value and the frames", async () => {
    const { total, settled, items } = await queue();
    expect(total).toBe(2);
    expect(settled).toBe(0);
    expect(items.map((i) => [i.video.id, i.target, i.disagreement])).toEqual(
      expect.arrayContaining([
        [videoIds[0], "s1", "spread"],
        [videoIds[0], "verdict", "tie"],
      ]),
    );
    const s1 = items.find((i) => i.target === "s1")!;
    expect(s1.reviews.map((r) => [r.email, r.value])).toEqual([
      [ann.email, 3],
      [bob.email, 5],
    ]);
    expect(s1.judge).toEqual({ runId, value: 8, display: "8" });
    expect(s1.frames.length).toBe(1);
    expect(s1.frames[0]!.url).toMatch(/^\/api\/v1\/frames\/.+\/image$/);
    const verdict = items.find((i) => i.target === "verdict")!;
    expect(verdict.judge?.value).toBe(1);
    expect(verdict.reviews.map((r) => r.display).sort()).toEqual(["no", "yes"]);
  });

  it("filters by task, target and run, and refuses anyone but owners", async () => {
    expect((await queue({ target: "verdict" })).items.map((i) => i.target)).toEqual(["verdict"]);
    expect((await queue({ task: "caption_style" })).total).toBe(0);
    expect((await queue({ runId })).total).toBe(2);
    await expect(queue({ runId: "no-such-run" })).rejects.toBeInstanceOf(NotFoundError);
    // Owners only: the route's wrapper checks gold.set before the queue is read.
    const refused = await adjudicationRoute(
      apiRequest(`/api/v1/projects/${projectId}/adjudication`, await keyFor(ann)),
      routeContext({ projectId }),
    );
    expect(refused.status).toBe(403);
  });
});

describe("gold values", () => {
  it("are set, overwritten with the version seen, kept in history, and a stale or missing version is a 409", async () => {
    const key = await keyOf(videoIds[0]!, "s1");
    const first = await setGold(prisma, owner, projectId, { targetKey: key, value: 4, note: "smoke at 0:02" });
    expect(first).toMatchObject({
      value: 4,
      note: "smoke at 0:02",
      version: 1,
      adjudicator: { id: owner.userId, email: owner.email },
    });
    const second = await setGold(prisma, owner, projectId, {
      targetKey: key,
      value: 6,
      note: "the hand melts",
      expectedVersion: 1,
    });
    expect(second.version).toBe(2);
    expect(second.history.map((h) => [h.version, h.before, h.after])).toEqual([
      [1, null, { value: 4, note: "smoke at 0:02" }],
      [2, { value: 4, note: "smoke at 0:02", adjudicatorId: owner.userId }, { value: 6, note: "the hand melts" }],
    ]);
    const stale = await setGold(prisma, owner, projectId, { targetKey: key, value: 1, expectedVersion: 1 }).catch(
      (e: unknown) => e,
    );
    expect(stale).toBeInstanceOf(ReviewConflictError);
    expect((stale as ReviewConflictError).status).toBe(409);
    const missing = await setGold(prisma, owner, projectId, { targetKey: key, value: 1 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ReviewConflictError);
    expect((await prisma.goldJudgment.findFirstOrThrow({ where: { targetKey: key } })).value).toBe(6);

    await expect(
      setGold(prisma, owner, projectId, { targetKey: key, value: 11, expectedVersion: 2 }),
    ).rejects.toBeInstanceOf(ValidationError);
    const body = JSON.stringify({ targetKey: key, value: 5, expectedVersion: 2 });
    const refused = await goldRoute(
      apiRequest(`/api/v1/projects/${projectId}/gold`, await keyFor(ann), { method: "PUT", body }),
      routeContext({ projectId }),
    );
    expect(refused.status).toBe(403);
    await expect(
      setGold(prisma, owner, projectId, { targetKey: "hallucination|v:nothing|s1", value: 5 }),
    ).rejects.toBeInstanceOf(NotFoundError);

    const { settled, items } = await queue({ state: "settled" });
    expect(settled).toBe(1);
    expect(items.map((i) => [i.target, i.gold?.value, i.gold?.note])).toEqual([["s1", 6, "the hand melts"]]);
    expect((await queue({ state: "open" })).items.map((i) => i.target)).toEqual(["verdict"]);
  });

  it("are what agreement compares the judge with (judge_vs_gold), apart from reviewers and their consensus", async () => {
    // Gold: v0 s1 = 6 (judge 8), v0 verdict = no (judge yes), v1 s1 = 2 (judge 2, not disputed but settled anyway).
    await setGold(prisma, owner, projectId, {
      targetKey: await keyOf(videoIds[0]!, "verdict"),
      value: 0,
      note: "no artefact",
    });
    await setGold(prisma, owner, projectId, { targetKey: await keyOf(videoIds[1]!, "s1"), value: 2 });
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId }),
    );
    const gold = report.humanVsJudge.gold!;
    expect(gold.n).toBe(3);
    // Scores: |8 − 6| and |2 − 2|.
    expect(gold.native.score.n).toBe(2);
    expect(gold.native.score.values.mae).toBeCloseTo(1, 12);
    // Binarised (score ≥ 5; verdict yes): s1 v0 both positive, s1 v1 both negative, verdict v0 judge yes vs gold no.
    expect(gold.binary.confusion).toEqual({ tp: 1, fp: 1, fn: 0, tn: 1 });
    expect(gold.binary.values.accuracy).toBeCloseTo(2 / 3, 12);
    expect(report.reviewers.map((r) => r.id)).not.toContain("gold");
    // The consensus is the reviewers' own: v0 s1 median 4, not the gold 6.
    expect(report.humanVsJudge.consensus.native.score.n).toBe(3);
    expect(
      reportRows(report).some((row) => row[0] === "judge_vs_gold" && row[2] === "binary" && row[3] === "accuracy"),
    ).toBe(true);

    // truth=gold: the confusion is the judge against gold; targets without gold drop out.
    const againstGold = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId, truth: "gold" }),
    );
    expect(againstGold.options.truth).toBe("gold");
    expect(againstGold.confusion.all.n).toBe(3);
    const againstConsensus = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(builtInCatalogue()).parse({ runId }),
    );
    expect(againstConsensus.confusion.all.n).toBe(4);
  });

  it("are carried by the exports: gold_value, gold_note, gold_adjudicator", async () => {
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({ format: "jsonl", runId }),
    );
    const rows = (await new Response(stream).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRow);
    const gold = (videoId: string, category: string) =>
      rows.find((r) => r.videoId === videoId && r.category === category)!.gold;
    expect(gold(videoIds[0]!, "s1")).toEqual({ value: 6, note: "the hand melts", adjudicator: owner.email });
    expect(gold(videoIds[0]!, "verdict")).toEqual({ value: 0, note: "no artefact", adjudicator: owner.email });
    expect(gold(videoIds[2]!, "s1")).toBeNull();

    const csv = await new Response(
      (
        await projectExport(
          prisma,
          await projectAccess(prisma, owner, projectId, "export.read"),
          exportQuerySchema(builtInCatalogue()).parse({ format: "csv", runId }),
        )
      ).stream,
    ).text();
    const [header, ...lines] = csv.trimEnd().split("\r\n");
    const columns = header!.split(",");
    const at = (name: string) => columns.indexOf(name);
    expect(at("gold_value")).toBeGreaterThan(0);
    const v0s1 = lines.find((l) => l.startsWith(`${videoIds[0]},`) && l.includes(",s1,"))!.split(",");
    expect([v0s1[at("gold_value")], v0s1[at("gold_note")], v0s1[at("gold_adjudicator")]]).toEqual([
      "6",
      "the hand melts",
      owner.email,
    ]);
  });
});
