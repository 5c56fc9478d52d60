/**
 * Issue 66 §8: pairwise label sets go in from UVE-Bench annotations, arena battles, GenAI-Bench judge outputs and
 * generic CSV/JSONL (fixtures written from the real files' shapes), with a dry run that counts rows imported,
 * interpreted and refused by reason; and come out again (export → import → the same votes).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { DEFAULT_ASPECTS } from "../aspects";
import { exportPairSetVotes } from "../export/votes-export";
import type { VoteExportFormat } from "../export/votes-export.types";
import { importPairwise } from "./import-pairwise";
import { pairImportOptionsSchema, type PairImportAnswer } from "./import.types";

let owner: Actor;
let projectId: string;

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name));

async function* once(bytes: Uint8Array) {
  yield bytes;
}

async function run(fileName: string, options: Record<string, unknown>, bytes = fixture(fileName)) {
  return importPairwise(prisma, await projectAccess(prisma, owner, projectId, "pairs.manage"), {
    options: pairImportOptionsSchema.parse(options),
    file: once(bytes),
    fileName,
  });
}

/** The votes stored for a pair set, in a comparable form (the rater without its label set's id). */
async function storedVotes(pairSetId: string) {
  const verdicts = await prisma.pairVerdict.findMany({ where: { pairSetId }, include: { pair: true } });
  return verdicts
    .map((v) =>
      [
        v.pair.prompt,
        v.pair.generatorA,
        v.pair.generatorB,
        v.aspect,
        v.raterId.replace(/^labelset:[^:]+:/, ""),
        v.verdict,
        v.strength,
      ].join(" | "),
    )
    .sort();
}

async function exported(pairSetId: string, format: VoteExportFormat) {
  const file = await exportPairSetVotes(
    prisma,
    await projectAccess(prisma, owner, projectId, "export.read"),
    pairSetId,
    format,
  );
  let text = "";
  for await (const chunk of file.chunks) text += chunk;
  return text;
}

async function video(relativePath: string, prompt: string, model: string) {
  await prisma.video.create({
    data: {
      projectId,
      sha256: relativePath.padEnd(64, "0").slice(0, 64),
      sizeBytes: BigInt(1),
      fileName: relativePath.split("/").pop()!,
      relativePath,
      storageKey: `k/${relativePath}`,
      contentType: "video/mp4",
      status: "ready",
      prompt,
      model,
      createdById: owner.userId,
    },
  });
}

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Pairwise imports" })).id;
  await video("Sora/a cat-0.mp4", "a cat", "Sora");
  await video("Kling/a cat-0.mp4", "a cat", "Kling");
  await video("Sora/a dog-0.mp4", "a dog", "Sora");
  await video("Kling/a dog-0.mp4", "a dog", "Kling");
});

/** A dry run, then the real run: the dry run writes nothing and foretells the real run's counts. */
async function dryThenReal(fileName: string, options: Record<string, unknown>) {
  const before = await prisma.pairVerdict.count({ where: { projectId } });
  const dry = await run(fileName, { ...options, dryRun: true });
  expect(await prisma.pairVerdict.count({ where: { projectId } })).toBe(before);
  expect(await prisma.pairSet.count({ where: { projectId, name: options.name as string } })).toBe(0);
  const real = await run(fileName, { ...options, dryRun: false });
  expect(dry.imported).toBe(dry.votes);
  expect(real.imported).toBe(dry.votes);
  expect({ ...real, dryRun: true, pairSetId: null, labelSetId: null }).toEqual(dry);
  return { dry, real };
}

function refusedRows(answer: PairImportAnswer) {
  return answer.refused.map((r) => [r.row, r.reason, r.rater ?? null]);
}

describe("generic CSV", () => {
  it("imports the good rows and refuses each bad one with its reason, counted", async () => {
    const { dry, real } = await dryThenReal("generic-votes.csv", { format: "csv", name: "generic csv" });
    expect(dry).toMatchObject({ rows: 12, votes: 5, pairs: 3, raters: ["ann1", "ann2", "ann3"], matchedVideos: 4 });
    expect(dry.aspects).toEqual(["overall", "physics"]);
    expect(dry.refusedByReason).toEqual({
      two_prompts: 1,
      duplicate_vote: 1,
      same_video: 1,
      unknown_verdict: 1,
      unknown_aspect: 1,
      bad_strength: 1,
      missing_column: 1,
    });
    expect(refusedRows(dry)).toEqual([
      [5, "two_prompts", "ann1"],
      [6, "duplicate_vote", "ann1"],
      [7, "same_video", "ann1"],
      [9, "unknown_verdict", null],
      [10, "unknown_aspect", "ann1"],
      [11, "bad_strength", null],
      [12, "missing_column", null],
    ]);
    expect(dry.interpreted).toMatchObject({
      "prompt read from the matched video": 4,
      "video A not in the project: kept by name": 1,
    });
    const set = await prisma.pairSet.findUniqueOrThrow({ where: { id: real.pairSetId! } });
    expect(set.origin).toMatchObject({
      source: "import",
      format: "csv",
      fileName: "generic-votes.csv",
      sha256: dry.sha256,
    });
    expect(set.pairCount).toBe(3);
    expect(set.aspects).toEqual([
      { ...DEFAULT_ASPECTS.find((aspect) => aspect.id === "overall"), levels: 4 },
      { ...DEFAULT_ASPECTS.find((aspect) => aspect.id === "physics"), levels: 5 },
    ]);
    const labelSet = await prisma.labelSet.findUniqueOrThrow({ where: { id: real.labelSetId! } });
    expect(labelSet).toMatchObject({
      format: "pairwise:csv",
      annotators: ["ann1", "ann2", "ann3"],
      sha256: dry.sha256,
    });
    expect(await storedVotes(real.pairSetId!)).toEqual([
      "a cat | Sora | Kling | overall | ann1 | A | 1",
      "a cat | Sora | Kling | overall | ann2 | tie_good | 1",
      "a cat | Sora | Kling | physics | ann1 | B | 2",
      "a dog | Kling | Sora | overall | ann1 | tie_bad | 1",
      "a horse, galloping | Veo | __proto__ | overall | ann3 | A | 1",
    ]);
    const pair = await prisma.pair.findFirstOrThrow({ where: { pairSetId: real.pairSetId!, prompt: "a cat" } });
    expect(pair).toMatchObject({ nameA: "Sora/a cat-0.mp4", nameB: "Kling/a cat-0.mp4" });
    expect(pair.videoAId).not.toBeNull();
    const verdict = await prisma.pairVerdict.findFirstOrThrow({ where: { pairSetId: real.pairSetId! } });
    expect(verdict).toMatchObject({ raterKind: "label_set", labelSetId: real.labelSetId, aShownOn: null });
  });

  it("refuses a second import under a taken name, and a file of no usable vote, writing nothing", async () => {
    await expect(run("generic-votes.csv", { format: "csv", name: "generic csv", dryRun: false })).rejects.toThrow(
      /already has a pair set named/,
    );
    const bad = Buffer.from("video_a,video_b,verdict,rater\nx.mp4,y.mp4,maybe,ann\n");
    await expect(run("bad.csv", { format: "csv", name: "nothing", dryRun: false }, bad)).rejects.toThrow(
      /no vote that can be imported.*unknown_verdict: 1/,
    );
    expect(await prisma.pairSet.count({ where: { projectId, name: "nothing" } })).toBe(0);
    expect(await prisma.labelSet.count({ where: { projectId, name: "nothing" } })).toBe(0);
  });

  it("lets one of two imports of the same name at once through and refuses the other as a conflict", async () => {
    const results = await Promise.allSettled([
      run("generic-votes.csv", { format: "csv", name: "raced", dryRun: false }),
      run("generic-votes.csv", { format: "csv", name: "raced", dryRun: false }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409 });
    expect(await prisma.pairSet.count({ where: { projectId, name: "raced" } })).toBe(1);
  });

  it("refuses two prompts unless the import says crossPrompt", async () => {
    const file = Buffer.from("video_a,video_b,verdict,rater\nSora/a cat-0.mp4,Kling/a dog-0.mp4,A,ann\n");
    expect((await run("x.csv", { format: "csv", name: "cross" }, file)).refusedByReason).toEqual({ two_prompts: 1 });
    expect((await run("x.csv", { format: "csv", name: "cross", crossPrompt: true }, file)).votes).toBe(1);
  });

  it("lists the first 100 refusals with their rows and counts every one by reason", async () => {
    const bad = Array.from({ length: 150 }, (_, i) => `x${i}.mp4,y${i}.mp4,maybe,ann,p,g,h`);
    const file = Buffer.from(`video_a,video_b,verdict,rater,prompt,generator_a,generator_b\n${bad.join("\n")}\n`);
    const answer = await run("bad.csv", { format: "csv", name: "many refusals" }, file);
    expect(answer).toMatchObject({ rows: 150, votes: 0, refusedCount: 150, refusedByReason: { unknown_verdict: 150 } });
    expect(answer.refused.map((r) => r.row)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("refuses a cell with a NUL byte or past the length limit, keeping the other rows", async () => {
    const file = Buffer.from(
      `video_a,video_b,verdict,rater,prompt,generator_a,generator_b\nx.mp4,y.mp4,A,ann\u0000,p,g,h\nx.mp4,y.mp4,A,${"r".repeat(5000)},p,g,h\nx.mp4,y.mp4,B,ok,p,g,h\n`,
    );
    const answer = await run("nul.csv", { format: "csv", name: "nul", dryRun: false }, file);
    expect(answer).toMatchObject({ rows: 3, imported: 1, refusedByReason: { malformed_row: 1, cell_too_long: 1 } });
  });
});

describe("generic JSONL", () => {
  it("reads one vote a line and refuses a line that is not JSON", async () => {
    const { dry } = await dryThenReal("generic-votes.jsonl", { format: "jsonl", name: "generic jsonl" });
    expect(dry).toMatchObject({ rows: 6, votes: 4, refusedByReason: { two_prompts: 1, malformed_row: 1 } });
  });
});

describe("UVE-Bench annotations", () => {
  it("reads the items keyed by id: generator from the path, prompt from the dataset and clip when null", async () => {
    const { dry, real } = await dryThenReal("uve-annotations.json", { format: "uve", name: "uve" });
    expect(dry).toMatchObject({ rows: 9, votes: 6, pairs: 5, raters: ["uve"], matchedVideos: 0 });
    expect(dry.refusedByReason).toEqual({ unknown_verdict: 1, same_video: 1, unknown_aspect: 1 });
    expect(dry.aspects).toEqual(["dynamic_degree", "tv_alignment", "static_visual_quality"]);
    expect(dry.interpreted["no prompt: the pair's prompt is its dataset and clip number"]).toBe(5);
    expect(await storedVotes(real.pairSetId!)).toEqual([
      "A older man who wears a white long-sleeved shirt and black pants is playing the piano. | mochi | moviegen_480p | tv_alignment | uve | B | 1",
      "VideoGen_Eval:00102 | kling1.5 | gen3 | dynamic_degree | uve | tie_good | 1",
      "VideoGen_Eval:00102 | kling1.5 | gen3 | static_visual_quality | uve | A | 1",
      "movie_gen_video_bench:00000 | mochi | OpenSora1.2 | dynamic_degree | uve | A | 1",
      "movie_gen_video_bench:00000 | moviegen_480p | mochi | dynamic_degree | uve | B | 1",
      "movie_gen_video_bench:00001 | moviegen_480p | mochi | dynamic_degree | uve | tie_bad | 1",
    ]);
  });
});

describe("arena battles", () => {
  it("reads FastChat's battle rows, tie as tie_good (counted), __proto__ a generator like any other", async () => {
    const { dry, real } = await dryThenReal("arena-battles.json", { format: "arena", name: "arena" });
    expect(dry).toMatchObject({
      rows: 6,
      votes: 4,
      pairs: 4,
      raters: ["arena_user_1", "arena_user_2", "arena_user_3"],
    });
    expect(dry.refusedByReason).toEqual({ unknown_verdict: 1, missing_column: 1 });
    expect(dry.interpreted['"tie" read as tie_good (both acceptable)']).toBe(1);
    expect(await storedVotes(real.pairSetId!)).toEqual([
      "question:a1f0 | Sora | __proto__ | overall | arena_user_1 | A | 1",
      "question:a1f1 | Kling | Sora | overall | arena_user_2 | B | 1",
      "question:a1f2 | Kling | __proto__ | overall | arena_user_1 | tie_good | 1",
      "question:a1f3 | Sora | Kling | overall | arena_user_3 | tie_bad | 1",
    ]);
  });

  it("matches videos through the column mapping", async () => {
    const file = Buffer.from(
      `${JSON.stringify({ model_a: "Sora", model_b: "Kling", winner: "model_a", judge: "u1", tstamp: 1, left: "Sora/a dog-0.mp4", right: "Kling/a dog-0.mp4" })}\n`,
    );
    const answer = await run(
      "b.jsonl",
      { format: "arena", name: "mapped", mapping: { video_a: "left", video_b: "right" } },
      file,
    );
    expect(answer).toMatchObject({ votes: 1, matchedVideos: 2 });
  });
});

describe("GenAI-Bench judge outputs", () => {
  it("reads two raters a row, refusing only the judge's vote when its answer has no label", async () => {
    const { dry, real } = await dryThenReal("genai-bench-pairwise.jsonl", {
      format: "genai-bench",
      name: "genai-bench",
      judge: "gpt4o",
    });
    expect(dry).toMatchObject({ rows: 6, votes: 10, pairs: 6, raters: ["gpt4o", "human"] });
    expect(refusedRows(dry)).toEqual([
      [3, "no_verdict_label", "gpt4o"],
      [6, "unknown_verdict", "human"],
    ]);
    expect(dry.interpreted["[[A=B]] read as tie_good"]).toBe(1);
    const votes = await storedVotes(real.pairSetId!);
    expect(votes).toContain("castle | left | right | overall | gpt4o | tie_good | 1");
    expect(votes).toContain("crosswalk | left | right | overall | human | tie_bad | 1");
    expect(votes).toContain("crosswalk | left | right | overall | gpt4o | B | 1");
  });
});

describe("export → import → the same votes", () => {
  const cases: [string, string, Record<string, unknown>, VoteExportFormat, "csv" | "jsonl" | "arena"][] = [
    ["generic-votes.csv", "rt csv", { format: "csv" }, "csv", "csv"],
    ["uve-annotations.json", "rt uve", { format: "uve" }, "jsonl", "jsonl"],
    ["genai-bench-pairwise.jsonl", "rt genai", { format: "genai-bench" }, "csv", "csv"],
    ["arena-battles.json", "rt arena", { format: "arena" }, "arena", "arena"],
  ];
  it.each(cases)("%s exported as %s… comes back the same", async (fileName, name, options, exportAs, importAs) => {
    const first = await run(fileName, { ...options, name, dryRun: false });
    const text = await exported(first.pairSetId!, exportAs);
    const again = await run(
      `again.${exportAs}`,
      { format: importAs, name: `${name} again`, dryRun: false },
      Buffer.from(text),
    );
    expect(again.refusedCount).toBe(0);
    expect(again.imported).toBe(first.imported);
    expect(await storedVotes(again.pairSetId!)).toEqual(await storedVotes(first.pairSetId!));
  });
});
