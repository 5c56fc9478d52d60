/**
 * The demo's pairwise part: over the demo clips (one generator) it adds three simulated generators' videos, makes
 * every generator pair per prompt and one honeypot, seeds two simulated reviewers' verdicts with sides and times and a
 * simulated judge run answered in both orders and reconciled; seeding again adds nothing.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../lib/auth/actor";
import { prisma } from "../../lib/db/prisma";
import { DEFAULT_ASPECTS } from "../../lib/pairwise/aspects";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { CLIPS } from "./demo-clips";
import { DEMO_GENERATOR } from "./demo-clip-upload";
import {
  DEMO_PAIR_SET,
  DEMO_TRUE_STRENGTH,
  PAIRWISE_REVIEWERS,
  reconcileDemoOrders,
  resumeDemoPairwise,
  seedDemoPairwise,
} from "./demo-pairwise";
import { DEMO_STUB_ENDPOINT } from "./demo-stub-endpoints";

const ASPECTS = DEFAULT_ASPECTS.length;
/** 4 prompts × C(4 generators, 2) pairs, and the honeypot. */
const PAIRS = CLIPS.length * 6 + 1;

let owner: Actor;
let projectId: string;
let endpointId: string;
beforeAll(async () => {
  owner = await makeUser({ isAdmin: true });
  const project = await projectWithFramedVideos(prisma, owner, {
    videoCount: CLIPS.length,
    keyFrames: 1,
    name: "Pairwise demo part",
  });
  projectId = project.projectId;
  for (const [i, id] of project.videoIds.entries())
    await prisma.video.update({
      where: { id },
      data: {
        fileName: path.basename(CLIPS[i]!.path),
        relativePath: `${DEMO_GENERATOR}/${CLIPS[i]!.path}`,
        model: DEMO_GENERATOR,
        prompt: path.basename(CLIPS[i]!.path).replace(/-0\.mp4$/, ""),
      },
    });
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: DEMO_STUB_ENDPOINT,
      baseUrl: "http://127.0.0.1:4010/v1",
      model: "stub-vision",
      createdById: owner.userId,
    },
  });
  endpointId = endpoint.id;
});

async function counts() {
  const set = await prisma.pairSet.findUniqueOrThrow({ where: { projectId_name: { projectId, name: DEMO_PAIR_SET } } });
  const [videos, pairs, verdicts, history, answers, assignments, runs] = await Promise.all([
    prisma.video.count({ where: { projectId } }),
    prisma.pair.count({ where: { pairSetId: set.id } }),
    prisma.pairVerdict.count({ where: { pairSetId: set.id } }),
    prisma.pairVerdictHistory.count({ where: { verdict: { pairSetId: set.id } } }),
    prisma.pairJudgeAnswer.count({ where: { pair: { pairSetId: set.id } } }),
    prisma.pairAssignment.count({ where: { pairSetId: set.id } }),
    prisma.judgeRun.count({ where: { pairSetId: set.id } }),
  ]);
  return { set, videos, pairs, verdicts, history, answers, assignments, runs };
}

describe("the demo's pairwise part", () => {
  it("seeds pairs, two reviewers' verdicts and a judge run in both orders, once", async () => {
    const logged: string[] = [];
    const links = await seedDemoPairwise({ prisma, actor: owner, projectId, endpointId, log: (l) => logged.push(l) });
    const first = await counts();
    expect(first).toMatchObject({
      videos: CLIPS.length * 4,
      pairs: PAIRS,
      verdicts: PAIRS * ASPECTS * 3,
      history: PAIRS * ASPECTS * 2,
      answers: PAIRS * ASPECTS * 2,
      assignments: PAIRS * 2,
      runs: 1,
    });
    expect(first.set.pairCount).toBe(PAIRS);
    expect(logged).toEqual([expect.stringMatching(/^pair set "Demo: generators compared": 25 pairs, 200 verdicts/)]);
    const base = `/projects/${projectId}/pairs/${first.set.id}`;
    expect(links.map((l) => l.path)).toEqual([`${base}/leaderboard`, `${base}/agreement`, `${base}/review`]);

    await seedDemoPairwise({ prisma, actor: owner, projectId, endpointId, log: () => {} });
    await resumeDemoPairwise({ prisma, actor: owner, projectId, stubBaseUrl: "http://127.0.0.1:4010/v1" });
    expect(await counts()).toEqual(first);
  });

  it("has every generator pair per prompt, A and B not always in name order, and one frozen honeypot", async () => {
    const pairs = await prisma.pair.findMany({ where: { pairSet: { projectId, name: DEMO_PAIR_SET } } });
    const made = pairs.filter((p) => !p.honeypot);
    expect(new Set(made.map((p) => p.prompt)).size).toBe(CLIPS.length);
    for (const prompt of new Set(made.map((p) => p.prompt))) {
      const ofPrompt = made.filter((p) => p.prompt === prompt);
      expect(new Set(ofPrompt.map((p) => [p.generatorA, p.generatorB].sort().join("|"))).size).toBe(6);
    }
    expect(made.some((p) => p.generatorA > p.generatorB)).toBe(true);
    expect(made.some((p) => p.generatorA < p.generatorB)).toBe(true);
    expect(made.every((p) => p.videoAId !== p.videoBId && p.doneCount === 2)).toBe(true);
    const honeypots = pairs.filter((p) => p.honeypot);
    expect(honeypots).toHaveLength(1);
    expect(honeypots[0]).toMatchObject({ honeypot: { kind: "frozen" }, generatorA: DEMO_GENERATOR });
    expect(honeypots[0]!.videoAId).toBe(honeypots[0]!.videoBId);
  });

  it("gives each reviewer a verdict per pair and aspect with sides and times; B leans left and misses the honeypot", async () => {
    const reviewers = await prisma.user.findMany({
      where: { email: { in: PAIRWISE_REVIEWERS.map((r) => r.email) } },
      orderBy: { email: "asc" },
    });
    const set = await prisma.pairSet.findUniqueOrThrow({
      where: { projectId_name: { projectId, name: DEMO_PAIR_SET } },
    });
    const leftRates: number[] = [];
    for (const [i, reviewer] of reviewers.entries()) {
      const verdicts = await prisma.pairVerdict.findMany({
        where: { pairSetId: set.id, raterId: reviewer.id },
        include: { pair: true },
      });
      expect(verdicts).toHaveLength(PAIRS * ASPECTS);
      expect(verdicts.every((v) => v.raterKind === "reviewer" && (v.msToVerdict ?? 0) > 0)).toBe(true);
      expect(verdicts.every((v) => v.aShownOn === "left" || v.aShownOn === "right")).toBe(true);
      const honeypot = verdicts.filter((v) => v.pair.honeypot);
      expect(honeypot.map((v) => v.verdict)).toEqual(Array(ASPECTS).fill(i === 0 ? "A" : "B"));
      const decided = verdicts.filter((v) => v.verdict === "A" || v.verdict === "B");
      const left = decided.filter((v) => (v.verdict === "A") === (v.aShownOn === "left"));
      leftRates.push(left.length / decided.length);
      expect(new Set(verdicts.map((v) => v.verdict))).toEqual(new Set(["A", "B", "tie_good", "tie_bad"]));
    }
    expect(leftRates[1]).toBeGreaterThan(leftRates[0]!);
    expect(leftRates[1]).toBeGreaterThan(0.6);
  });

  it("keeps the judge's answers in both orders per pair and aspect, reconciled with flips counted as ties", async () => {
    const run = await prisma.judgeRun.findFirstOrThrow({
      where: { projectId, pipeline: "pairwise" },
      include: { pairAnswers: true, pairVerdicts: true },
    });
    expect(run).toMatchObject({ status: "done", simulated: true, endpointId });
    const byKey = new Map<string, Map<string, string | null>>();
    for (const answer of run.pairAnswers) {
      const key = `${answer.pairId}|${answer.aspect}`;
      byKey.set(key, (byKey.get(key) ?? new Map()).set(answer.order, answer.verdict));
    }
    expect(byKey.size).toBe(PAIRS * ASPECTS);
    expect([...byKey.values()].every((orders) => orders.has("AB") && orders.has("BA"))).toBe(true);
    expect(run.pairVerdicts).toHaveLength(PAIRS * ASPECTS);
    let flips = 0;
    for (const verdict of run.pairVerdicts) {
      expect(verdict).toMatchObject({ raterKind: "judge", raterId: `run:${run.id}`, aShownOn: null });
      const orders = byKey.get(`${verdict.pairId}|${verdict.aspect}`)!;
      const reconciled = reconcileDemoOrders(orders.get("AB") as "A", orders.get("BA") as "A");
      expect(verdict.verdict).toBe(reconciled.verdict);
      if (reconciled.flip) flips++;
    }
    expect(flips).toBeGreaterThan(0);
    expect(flips).toBeLessThan(PAIRS * ASPECTS * 0.3);
    // A BA answer's label is in the terms the judge saw: B shown as "Video A".
    const ba = run.pairAnswers.find((a) => a.order === "BA" && a.verdict === "A")!;
    expect(ba.answer).toBe("[[B>A]]");
  });

  it("ranks the generators in the hidden strengths' order, by the people and by the judge, on every aspect", async () => {
    // Every generator meets every other once per prompt and rater: a balanced design, where Bradley–Terry's order is
    // the order of the win shares (ties half a win).
    const hidden = [...DEMO_TRUE_STRENGTH.keys()];
    const verdicts = await prisma.pairVerdict.findMany({
      where: { pair: { pairSet: { projectId, name: DEMO_PAIR_SET } } },
      include: { pair: true },
    });
    for (const raterKind of ["reviewer", "judge"])
      for (const { id: aspect } of DEFAULT_ASPECTS) {
        const wins = new Map(hidden.map((g) => [g, 0]));
        for (const v of verdicts.filter((v) => !v.pair.honeypot && v.raterKind === raterKind && v.aspect === aspect)) {
          const a = v.verdict === "A" ? 1 : v.verdict === "B" ? 0 : 0.5;
          wins.set(v.pair.generatorA, wins.get(v.pair.generatorA)! + a);
          wins.set(v.pair.generatorB, wins.get(v.pair.generatorB)! + 1 - a);
        }
        const order = [...wins].sort(([, x], [, y]) => y - x).map(([g]) => g);
        expect({ raterKind, aspect, order }).toEqual({ raterKind, aspect, order: hidden });
      }
  });

  it("a later start over a demo seeded before it had pairs seeds them once, with the demo's stub endpoint", async () => {
    const old = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, name: "Older demo" });
    for (const [i, id] of old.videoIds.entries())
      await prisma.video.update({ where: { id }, data: { model: DEMO_GENERATOR, prompt: `Prompt ${i}` } });
    const resume = { prisma, actor: owner, projectId: old.projectId, stubBaseUrl: "http://127.0.0.1:4010/v1" };
    expect(await resumeDemoPairwise(resume)).toEqual([]);
    const stub = await prisma.judgeEndpoint.create({
      data: {
        projectId: old.projectId,
        name: DEMO_STUB_ENDPOINT,
        baseUrl: "http://127.0.0.1:4010/v1",
        model: "stub-vision",
        createdById: owner.userId,
      },
    });
    const links = await resumeDemoPairwise(resume);
    expect(links.map((l) => l.label)).toEqual([
      "a pairwise leaderboard",
      "judge vs people on pairs",
      "compare two videos side by side",
    ]);
    await resumeDemoPairwise(resume);
    // 2 prompts × 6 generator pairs, and the honeypot.
    expect(await prisma.pair.count({ where: { projectId: old.projectId } })).toBe(13);
    expect(await prisma.judgeRun.findMany({ where: { projectId: old.projectId } })).toMatchObject([
      { pipeline: "pairwise", endpointId: stub.id, simulated: true },
    ]);
  });

  it("leaves a demo without clips alone", async () => {
    const empty = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "No demo clips" });
    const logged: string[] = [];
    const links = await seedDemoPairwise({
      prisma,
      actor: owner,
      projectId: empty.projectId,
      endpointId,
      log: (l) => logged.push(l),
    });
    expect(links).toEqual([]);
    expect(logged).toEqual(["no demo clips: the pairwise demo is left out"]);
    expect(await prisma.pairSet.count({ where: { projectId: empty.projectId } })).toBe(0);
  });
});
