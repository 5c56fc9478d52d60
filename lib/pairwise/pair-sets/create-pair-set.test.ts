/**
 * Issue 66 §1: pair sets made from the project. A seeded project of 4 generators × 3 prompts × 2 samples; every
 * design's pair count, reproducible seeds, A/B drawn, honeypots, and each refusal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { projectAccess, type ProjectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { GENERATORS, makePairVideos, pairSetProject, PROMPTS } from "../../../testkit/testing/pair-set-fixtures";
import { createPairSet } from "./create-pair-set";
import { createPairSetSchema } from "./create-pair-set.types";
import { listPairSets } from "./pair-sets";

let project: Awaited<ReturnType<typeof pairSetProject>>;
let owner: ProjectAccess<"pairs.manage">;
let names = 0;

beforeAll(async () => {
  project = await pairSetProject([
    { prompt: PROMPTS[0]!, model: null, sampleIndex: 0 },
    { prompt: PROMPTS[0]!, model: null, sampleIndex: 1 },
    { prompt: "A lonely prompt", model: "gen-a", sampleIndex: 0 },
    { prompt: null, model: "gen-a" },
  ]);
  owner = await projectAccess(prisma, project.owner, project.projectId, "pairs.manage");
});

/** Makes a set from a request as the API would parse it. */
function make(request: Record<string, unknown>) {
  return createPairSet(prisma, owner, createPairSetSchema.parse({ name: `set ${++names}`, ...request }));
}

async function pairsOf(pairSetId: string) {
  return prisma.pair.findMany({ where: { pairSetId }, orderBy: { position: "asc" } });
}

const meetingKey = (a: string, b: string) => [a, b].sort().join(" vs ");

describe("designs", () => {
  it("all_pairs makes every two generators on every prompt, one sample index each, the indices taking turns", async () => {
    const answer = await make({ design: "all_pairs", sample: "same_index" });
    expect(answer.pairs).toBe(18);
    expect(answer.pairSet.pairCount).toBe(18);
    const pairs = await pairsOf(answer.pairSet.id);
    expect(pairs.map((p) => p.position)).toEqual([...Array(18).keys()]);
    const videos = await prisma.video.findMany({ where: { projectId: project.projectId } });
    const byId = new Map(videos.map((v) => [v.id, v]));
    for (const pair of pairs) {
      const [a, b] = [byId.get(pair.videoAId!)!, byId.get(pair.videoBId!)!];
      expect(a.prompt).toBe(b.prompt);
      expect(a.sampleIndex).toBe(b.sampleIndex);
      expect([pair.generatorA, pair.generatorB]).toEqual([a.model, b.model]);
      expect(pair.generatorA).not.toBe(pair.generatorB);
      expect(pair.pairKey).toBe(`${a.id}:${b.id}`);
    }
    // Per prompt, 6 generator pairs over 2 sample indices: 3 each.
    for (const prompt of PROMPTS) {
      const indices = pairs.filter((p) => p.prompt === prompt).map((p) => byId.get(p.videoAId!)!.sampleIndex);
      expect(indices.filter((i) => i === 0)).toHaveLength(3);
    }
    expect(answer.notes).toEqual([
      "left out: 2 videos without a model",
      "left out: 1 videos without a prompt",
      "left out: 1 prompts with videos of one generator only",
    ]);
    expect(answer.leftOut).toMatchObject({ videosWithoutModel: 2, videosWithoutPrompt: 1, promptsWithOneGenerator: 1 });
  });

  it("all_pairs with random samples makes the same 18 generator pairs", async () => {
    const answer = await make({ design: "all_pairs", sample: "random", seed: 5 });
    const pairs = await pairsOf(answer.pairSet.id);
    expect(pairs).toHaveLength(18);
    const meetings = new Set(pairs.map((p) => `${p.prompt}: ${meetingKey(p.generatorA, p.generatorB)}`));
    expect(meetings.size).toBe(18);
  });

  it("round_robin: each prompt one round (every generator once), every two generators meeting once over 3 prompts", async () => {
    const answer = await make({ design: "round_robin" });
    const pairs = await pairsOf(answer.pairSet.id);
    expect(pairs).toHaveLength(6);
    for (const prompt of PROMPTS) {
      const round = pairs.filter((p) => p.prompt === prompt).flatMap((p) => [p.generatorA, p.generatorB]);
      expect(round.sort()).toEqual(GENERATORS);
    }
    const meetings = pairs.map((p) => meetingKey(p.generatorA, p.generatorB));
    expect(new Set(meetings).size).toBe(6);
  });

  it("k_per_prompt makes K generator pairs per prompt (at most every pair)", async () => {
    const two = await pairsOf((await make({ design: "k_per_prompt", k: 2 })).pairSet.id);
    expect(two).toHaveLength(6);
    for (const prompt of PROMPTS) expect(two.filter((p) => p.prompt === prompt)).toHaveLength(2);
    expect((await make({ design: "k_per_prompt", k: 50 })).pairs).toBe(18);
  });

  it("a subset of generators pairs only them", async () => {
    const answer = await make({ generators: ["gen-b", "gen-d"] });
    const pairs = await pairsOf(answer.pairSet.id);
    expect(pairs).toHaveLength(3);
    for (const pair of pairs) expect([pair.generatorA, pair.generatorB].sort()).toEqual(["gen-b", "gen-d"]);
  });

  it("a prompt list or named prompts choose the prompts; named prompts without videos are counted", async () => {
    const answer = await make({ prompts: { prompts: [PROMPTS[1], "No such prompt"] } });
    expect(answer.pairs).toBe(6);
    expect(answer.leftOut.promptsWithoutVideos).toBe(1);
    const list = await prisma.promptList.create({
      data: {
        projectId: project.projectId,
        name: "two",
        format: "txt",
        entryCount: 2,
        createdById: project.owner.userId,
        entries: {
          create: PROMPTS.slice(0, 2).map((prompt, position) => ({
            position,
            projectId: project.projectId,
            prompt,
            promptKey: prompt,
            dimensions: [],
            nameKeys: [],
          })),
        },
      },
    });
    expect((await make({ prompts: { promptListId: list.id } })).pairs).toBe(12);
    await expect(make({ prompts: { promptListId: "nope" } })).rejects.toMatchObject({ status: 404 });
  });
});

describe("seeds, sides and positions", () => {
  it("the same seed makes the same pairs in the same positions; another seed another order", async () => {
    const keys = async (seed: number, sample = "random") =>
      (await pairsOf((await make({ seed, sample })).pairSet.id)).map((p) => p.pairKey);
    const first = await keys(42);
    expect(await keys(42)).toEqual(first);
    expect(await keys(43)).not.toEqual(first);
  });

  it("A is drawn: about half the pairs put the generator later by name on side A", async () => {
    let later = 0;
    let total = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const pair of await pairsOf((await make({ seed })).pairSet.id)) {
        total++;
        if (pair.generatorA > pair.generatorB) later++;
      }
    }
    expect(total).toBe(90);
    expect(later / total).toBeGreaterThan(0.3);
    expect(later / total).toBeLessThan(0.7);
  });

  it("honeypots: a video against itself, kinds taking turns, counted apart", async () => {
    const answer = await make({ honeypots: { count: 6, kinds: ["frozen", "shuffled", "corrupted"] } });
    expect(answer).toMatchObject({ pairs: 24, honeypots: 6 });
    const honeypots = (await pairsOf(answer.pairSet.id)).filter((p) => p.honeypot !== null);
    expect(honeypots).toHaveLength(6);
    for (const pair of honeypots) {
      expect(pair.videoBId).toBe(pair.videoAId);
      expect(pair.generatorB).toBe(pair.generatorA);
      expect(pair.pairKey).toMatch(/^honeypot:(frozen|shuffled|corrupted):/);
    }
    const kinds = honeypots.map((p) => (p.honeypot as { kind: string }).kind).sort();
    expect(kinds).toEqual(["corrupted", "corrupted", "frozen", "frozen", "shuffled", "shuffled"]);
    await expect(make({ honeypots: { count: 25 } })).rejects.toMatchObject({ status: 422, code: "too_many_honeypots" });
  });
});

describe("refusals", () => {
  it("refuses a set with no prompt of two generators, saying why", async () => {
    await expect(make({ prompts: { prompts: ["A lonely prompt"] } })).rejects.toMatchObject({
      status: 422,
      code: "no_pairs",
      message: expect.stringMatching(/^no pairs: none of the 1 prompts chosen has videos of two generators/),
    });
    expect(await prisma.pairSet.count({ where: { projectId: project.projectId, name: `set ${names}` } })).toBe(0);
  });

  it("refuses an unknown generator, a bad aspect, `__proto__` as an aspect id, and options of the wrong design", async () => {
    await expect(make({ generators: ["gen-a", "gen-z"] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('"gen-z"'),
    });
    const bad = (request: Record<string, unknown>) => createPairSetSchema.safeParse({ name: "x", ...request }).success;
    expect(bad({ aspects: [{ id: "__proto__", label: "Proto" }] })).toBe(false);
    expect(bad({ aspects: [{ id: "Overall!", label: "Overall" }] })).toBe(false);
    expect(bad({ aspects: [] })).toBe(false);
    expect(bad({ design: "k_per_prompt" })).toBe(false);
    expect(bad({ k: 3 })).toBe(false);
    expect(bad({ design: "explicit" })).toBe(false);
    expect(bad({ crossPrompt: true })).toBe(false);
    expect(bad({ generators: ["gen-a"] })).toBe(false);
    expect(bad({ design: "triangle" })).toBe(false);
    expect(bad({})).toBe(true);
  });

  it("explicit pairs: refuses a video with itself and two prompts (unless crossPrompt), names the pair", async () => {
    const [a0, , b0] = project.videoIds; // gen-a s0, gen-a s1, gen-b s0 of PROMPTS[0]
    const otherPrompt = project.videoIds[8]!; // gen-a s0 of PROMPTS[1]
    await expect(make({ design: "explicit", pairs: [{ videoAId: a0, videoBId: a0 }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("pair 1: a pair of one video with itself"),
    });
    await expect(
      make({
        design: "explicit",
        pairs: [
          { videoAId: a0, videoBId: b0 },
          { videoAId: a0, videoBId: otherPrompt },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("pair 2: videos") });
    await expect(make({ design: "explicit", pairs: [{ videoAId: a0, videoBId: "missing" }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("no video missing in this project"),
    });
    const crossed = await make({
      design: "explicit",
      crossPrompt: true,
      pairs: [
        { videoAId: a0, videoBId: otherPrompt },
        { videoAId: a0, videoBId: b0 },
        { videoAId: a0, videoBId: b0 },
      ],
    });
    expect(crossed).toMatchObject({ pairs: 2, pairSet: { crossPrompt: true } });
    const pairs = await pairsOf(crossed.pairSet.id);
    expect(pairs.map((p) => [p.videoAId, p.videoBId])).toEqual([
      [a0, otherPrompt],
      [a0, b0],
    ]);
  });

  it("two makers of one name at once: one set, the other a 409", async () => {
    const input = createPairSetSchema.parse({ name: "raced" });
    const results = await Promise.allSettled([
      createPairSet(prisma, owner, input),
      createPairSet(prisma, owner, input),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ status: 409, message: expect.stringContaining('"raced"') });
    expect(await prisma.pairSet.count({ where: { projectId: project.projectId, name: "raced" } })).toBe(1);
  });
});

describe("generators named like object keys", () => {
  it("pairs `__proto__` and `constructor` as any other generator", async () => {
    const other = await pairSetProject();
    await makePairVideos(other.projectId, other.owner.userId, [
      { prompt: "Proto prompt", model: "__proto__", sampleIndex: 0 },
      { prompt: "Proto prompt", model: "constructor", sampleIndex: 0 },
      { prompt: "Proto prompt", model: "toString", sampleIndex: 0 },
    ]);
    const access = await projectAccess(prisma, other.owner, other.projectId, "pairs.manage");
    const answer = await createPairSet(
      prisma,
      access,
      createPairSetSchema.parse({ name: "proto", generators: ["__proto__", "constructor", "toString"] }),
    );
    expect(answer.pairs).toBe(3);
    const pairs = await pairsOf(answer.pairSet.id);
    expect(pairs.flatMap((p) => [p.generatorA, p.generatorB]).sort()).toEqual([
      "__proto__",
      "__proto__",
      "constructor",
      "constructor",
      "toString",
      "toString",
    ]);
  });
});

describe("permissions", () => {
  it("a reviewer may not make a set; a viewer may list them", async () => {
    await expect(projectAccess(prisma, project.reviewer, project.projectId, "pairs.manage")).rejects.toMatchObject({
      status: 403,
    });
    const viewer = await projectAccess(prisma, project.viewer, project.projectId, "project.view");
    const sets = await listPairSets(prisma, viewer);
    expect(sets.length).toBeGreaterThan(5);
    expect(sets.every((set) => set.origin.source === "project")).toBe(true);
  });
});
