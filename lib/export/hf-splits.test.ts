import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { ValidationError } from "../errors";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { insertJudgment } from "../../testkit/testing/judgments";
import { tarEntries } from "../../testkit/testing/tar-entries";
import { hfDataGlob, type HfDatasetRow, runHfDatasetExport } from "./hf-dataset";
import { hfSplitName, metadataSplitFields, seedSplitOf, uniqueSplitNames } from "./hf-splits";
import { hfDatasetQuerySchema, hfSplitSpecOf, type HfSplitSpec, type SeedRatios } from "./hf-splits.validation";
import { projectAccess } from "../authz/permissions";

/*
 * Issue 38 §4: the Hugging Face export's splits. A project of 9 videos with one key frame each, one finished
 * hallucination run over all of them; metadata and label sets are set per test on its videos.
 */
type Card = {
  configs: { config_name: string; data_files: { split: string; path: string }[] }[];
  dataset_info: { splits: { name: string; num_examples: number }[] };
};

let owner: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 9,
    keyFrames: 1,
    name: "HF splits",
  }));
  videoIds.sort();
  ({ runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: v % 10 }],
    outcome: (v) => ({ verdict: v % 2 === 0, overall: 10 * v, I: 5, S: 5, D: 3 }),
  }));
});

/** The export read back: each split's rows (from its shards), and the card's front matter. */
async function exported(split: HfSplitSpec) {
  const { stream, filename } = await runHfDatasetExport(
    prisma,
    await projectAccess(prisma, owner, projectId, "export.read"),
    runId,
    { split },
  );
  const entries = await tarEntries(stream);
  const rowsBySplit = new Map<string, HfDatasetRow[]>();
  const shardsBySplit = new Map<string, string[]>();
  for (const [name, bytes] of entries) {
    const match = /^data\/(\w+)-\d{5}\.jsonl$/.exec(name);
    if (!match) continue;
    const split = match[1]!;
    const rows = bytes
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as HfDatasetRow);
    rowsBySplit.set(split, [...(rowsBySplit.get(split) ?? []), ...rows]);
    shardsBySplit.set(split, [...(shardsBySplit.get(split) ?? []), name]);
  }
  const readme = entries.get("README.md")!.toString("utf8");
  const [, front, body] = readme.split(/^---$/m);
  return { filename, rowsBySplit, shardsBySplit, card: parseYaml(front!) as Card, body: body!, entries };
}

/** video id → the splits its rows are in. */
function splitsOfVideos(rowsBySplit: Map<string, HfDatasetRow[]>): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const [split, rows] of rowsBySplit)
    for (const id of new Set(rows.map((r) => r.video_id))) result.set(id, [...(result.get(id) ?? []), split].sort());
  return result;
}

/** The card's configs/data_files and dataset_info.splits name exactly the shards and row counts written. */
function expectCardMatchesFiles(
  card: Card,
  rowsBySplit: Map<string, HfDatasetRow[]>,
  shardsBySplit: Map<string, string[]>,
  allNames: string[],
) {
  expect(card.configs).toHaveLength(1);
  expect(card.configs[0]!.config_name).toBe("default");
  const dataFiles = card.configs[0]!.data_files;
  expect(dataFiles.map((d) => d.split).sort()).toEqual([...rowsBySplit.keys()].sort());
  for (const { split, path } of dataFiles) {
    expect(split).toMatch(/^\w+(\.\w+)*$/);
    expect(path).toBe(hfDataGlob(split));
    // The glob, as a regular expression, takes this split's shards and no other file of the dataset.
    const glob = new RegExp(`^${path.replaceAll(".", "\\.").replace("*", "[^/]*")}$`);
    expect(allNames.filter((n) => glob.test(n)).sort()).toEqual([...shardsBySplit.get(split)!].sort());
  }
  expect(card.dataset_info.splits.map((s) => [s.name, s.num_examples]).sort()).toEqual(
    [...rowsBySplit].map(([name, rows]) => [name, rows.length]).sort(),
  );
}

describe("seedSplitOf and split names (pure)", () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `video-${i}`);
  const ratios: SeedRatios = { train: 0.8, validation: 0.1, test: 0.1 };

  it("puts each video in one split by its id and the seed alone, near the shares, and another seed elsewhere", () => {
    const first = ids.map((id) => seedSplitOf(id, "42", ratios));
    expect(ids.map((id) => seedSplitOf(id, "42", ratios))).toEqual(first);
    // The same video, asked among fewer others, is in the same split.
    expect([...ids].reverse().map((id) => seedSplitOf(id, "42", ratios))).toEqual([...first].reverse());
    const share = (name: string) => first.filter((s) => s === name).length / ids.length;
    expect(share("train")).toBeGreaterThan(0.76);
    expect(share("train")).toBeLessThan(0.84);
    expect(share("validation")).toBeGreaterThan(0.07);
    expect(share("test")).toBeGreaterThan(0.07);
    const other = ids.map((id) => seedSplitOf(id, "43", ratios));
    const moved = other.filter((s, i) => s !== first[i]).length;
    // Two independent assignments differ for about 1 − (0.8² + 0.1² + 0.1²) = 34% of the videos.
    expect(moved / ids.length).toBeGreaterThan(0.25);
    expect(ids.every((id) => seedSplitOf(id, "7", { train: 0, validation: 0, test: 1 }) === "test")).toBe(true);
    expect(new Set(ids.map((id) => seedSplitOf(id, "7", { train: 0.5, validation: 0, test: 0.5 })))).toEqual(
      new Set(["train", "test"]),
    );
  });

  it("makes names the Hub accepts, and tells apart values that read alike", () => {
    expect(hfSplitName("Kling 1.6 (pro)")).toBe("Kling_1_6_pro");
    expect(hfSplitName("Café/ñandú")).toBe("Cafe_nandu");
    expect(hfSplitName("***")).toBe("value");
    expect(hfSplitName("x".repeat(300))).toHaveLength(64);
    const names = uniqueSplitNames([
      ["a", "Kling 1.6"],
      ["b", "Kling-1.6"],
      ["c", "all"],
      ["d", "Kling_1_6"],
    ]);
    expect([...names.values()]).toEqual(["Kling_1_6", "Kling_1_6_2", "all_2", "Kling_1_6_3"]);
    for (const name of names.values()) expect(name).toMatch(/^\w+(\.\w+)*$/);
  });

  it("validates the query: a seed split needs a seed and shares adding up to 1; a metadata split a field; the form's empty fields are ignored", () => {
    const parse = (query: Record<string, string>) => hfDatasetQuerySchema.safeParse({ runId: "r1", ...query });
    expect(hfSplitSpecOf(parse({}).data!)).toEqual({ kind: "none" });
    expect(
      hfSplitSpecOf(parse({ split: "seed", seed: "42", field: "", train: "", validation: "", test: "" }).data!),
    ).toEqual({
      kind: "seed",
      seed: "42",
      ratios: { train: 0.8, validation: 0.1, test: 0.1 },
    });
    expect(hfSplitSpecOf(parse({ split: "seed", seed: "1", train: "0.7", test: "0.3" }).data!)).toEqual({
      kind: "seed",
      seed: "1",
      ratios: { train: 0.7, validation: 0, test: 0.3 },
    });
    expect(
      parse({ split: "seed", seed: "1", train: "0.7", validation: "0.2", test: "0.2" }).error?.issues[0]?.message,
    ).toMatch(/add up to 1\.1, not 1/);
    expect(parse({ split: "seed" }).error?.issues[0]?.message).toMatch(/needs a seed/);
    expect(parse({ split: "seed", seed: "1", train: "1.5" }).success).toBe(false);
    expect(parse({ split: "metadata" }).error?.issues[0]?.message).toMatch(/needs a field/);
    expect(hfSplitSpecOf(parse({ split: "metadata", field: "camera", seed: "" }).data!)).toEqual({
      kind: "metadata",
      field: "camera",
    });
    expect(parse({ split: "random" }).success).toBe(false);
  });
});

describe("split exports (database)", () => {
  it("splits by seed: every video's rows in its one split, the same seed the same split, another seed another", async () => {
    const ratios: SeedRatios = { train: 0.5, validation: 0.25, test: 0.25 };
    const first = await exported({ kind: "seed", seed: "fold-1", ratios });
    expect(first.filename).toMatch(/_hf-dataset_runId-.+_split-seed-fold-1_/);
    const firstSplits = splitsOfVideos(first.rowsBySplit);
    expect([...firstSplits.keys()].sort()).toEqual(videoIds);
    for (const [id, splits] of firstSplits) expect(splits).toEqual([seedSplitOf(id, "fold-1", ratios)]);
    // As many rows as the unsplit export: none lost or doubled.
    const total = [...first.rowsBySplit.values()].reduce((n, rows) => n + rows.length, 0);
    expect(total).toBe((await exported({ kind: "none" })).rowsBySplit.get("test")!.length);
    expectCardMatchesFiles(first.card, first.rowsBySplit, first.shardsBySplit, [...first.entries.keys()]);

    const again = await exported({ kind: "seed", seed: "fold-1", ratios });
    expect(splitsOfVideos(again.rowsBySplit)).toEqual(firstSplits);

    // A seed whose assignment of these videos differs (found with the pure function), exported for real.
    const otherSeed = Array.from({ length: 50 }, (_, i) => `fold-${i + 2}`).find((seed) =>
      videoIds.some((id) => seedSplitOf(id, seed, ratios) !== seedSplitOf(id, "fold-1", ratios)),
    )!;
    const other = await exported({ kind: "seed", seed: otherSeed, ratios });
    const otherSplits = splitsOfVideos(other.rowsBySplit);
    expect(otherSplits).not.toEqual(firstSplits);
    for (const [id, splits] of otherSplits) expect(splits).toEqual([seedSplitOf(id, otherSeed, ratios)]);
    expect(other.body).toContain(`By seed \`${otherSeed}\``);
  });

  it("splits by a metadata field, one split per value with names the Hub accepts, and refuses fields the project does not have", async () => {
    const models = ["Sora", "Kling 1.6", "Kling-1.6", null, "Sora", "all", "Kling 1.6", null, "Sora"];
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({
        where: { id },
        data: { model: models[i], extra: { camera: i % 3 === 0 ? "static" : "pan left" } },
      });
    expect(await metadataSplitFields(prisma, projectId)).toEqual([
      "model",
      "seed",
      "sample_index",
      "dimension",
      "camera",
    ]);

    const byModel = await exported({ kind: "metadata", field: "model" });
    const splits = splitsOfVideos(byModel.rowsBySplit);
    const expectedName: Record<string, string> = {
      Sora: "Sora",
      "Kling 1.6": "Kling_1_6",
      "Kling-1.6": "Kling_1_6_2",
      all: "all_2",
    };
    for (const [i, id] of videoIds.entries())
      expect(splits.get(id)).toEqual([models[i] === null ? "none" : expectedName[models[i]!]]);
    expect([...byModel.rowsBySplit.keys()].sort()).toEqual(["Kling_1_6", "Kling_1_6_2", "Sora", "all_2", "none"]);
    expectCardMatchesFiles(byModel.card, byModel.rowsBySplit, byModel.shardsBySplit, [...byModel.entries.keys()]);
    expect(byModel.body).toContain("| `Kling_1_6_2` |");
    expect(byModel.body).toContain("model = Kling-1.6");

    const byCamera = await exported({ kind: "metadata", field: "camera" });
    expect([...byCamera.rowsBySplit.keys()].sort()).toEqual(["pan_left", "static"]);
    for (const [i, id] of videoIds.entries())
      expect(splitsOfVideos(byCamera.rowsBySplit).get(id)).toEqual([i % 3 === 0 ? "static" : "pan_left"]);

    for (const field of ["relativePath", 'model"; DROP TABLE video; --', "storageKey"]) {
      await expect(
        runHfDatasetExport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), runId, {
          split: { kind: "metadata", field },
        }),
      ).rejects.toThrow(ValidationError);
    }
    await expect(
      runHfDatasetExport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), runId, {
        split: { kind: "metadata", field: "nope" },
      }),
    ).rejects.toThrow(/one of: model, seed, sample_index, dimension, camera/);
  });

  it("splits by label set: each set's videos in its split, a video two sets label in both, the rest unlabelled", async () => {
    const importer = await makeUser();
    const makeSet = (name: string) =>
      prisma.labelSet.create({
        data: {
          projectId,
          name,
          format: "generic",
          fileName: `${name}.csv`,
          sha256: "0".repeat(64),
          importedById: importer.userId,
        },
      });
    const [haluBench, vbench] = [await makeSet("T2VHaluBench v1"), await makeSet("VBench (human)")];
    const label = async (labelSetId: string, videoId: string) => {
      const j = await insertJudgment(prisma, {
        projectId,
        task: "hallucination",
        targetType: "verdict",
        videoId,
        reviewerId: `labelset:${labelSetId}`,
        value: 1,
      });
      await prisma.humanJudgment.update({ where: { id: j.id }, data: { labelSetId } });
    };
    for (const id of videoIds.slice(0, 3)) await label(haluBench.id, id);
    for (const id of videoIds.slice(2, 5)) await label(vbench.id, id);

    const byLabelSet = await exported({ kind: "labelSet" });
    const splits = splitsOfVideos(byLabelSet.rowsBySplit);
    expect(videoIds.map((id) => splits.get(id))).toEqual([
      ["T2VHaluBench_v1"],
      ["T2VHaluBench_v1"],
      ["T2VHaluBench_v1", "VBench_human"],
      ["VBench_human"],
      ["VBench_human"],
      ["unlabelled"],
      ["unlabelled"],
      ["unlabelled"],
      ["unlabelled"],
    ]);
    expectCardMatchesFiles(byLabelSet.card, byLabelSet.rowsBySplit, byLabelSet.shardsBySplit, [
      ...byLabelSet.entries.keys(),
    ]);
    expect(byLabelSet.body).toContain('the videos label set "VBench (human)" labels');
  });

  it("refuses a label-set split when no label set labels the run's videos", async () => {
    const other = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "No label sets" });
    const { runId: otherRun } = await seedFinishedRun(prisma, owner, other.projectId, other.videoIds, {
      scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 3 }],
      outcome: () => ({ verdict: true, overall: 50, I: 5, S: 5, D: 3 }),
    });
    await expect(
      runHfDatasetExport(prisma, await projectAccess(prisma, owner, other.projectId, "export.read"), otherRun, {
        split: { kind: "labelSet" },
      }),
    ).rejects.toThrow(/No label set labels this run's videos/);
  });
});
