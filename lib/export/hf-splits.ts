import { createHash } from "node:crypto";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { ValidationError } from "../errors";
import type { HfSplitSpec, SeedRatios } from "./hf-splits.validation";
import { HF_SEED_SPLITS } from "./hf-splits.validation";

/**
 * How the Hugging Face dataset export (hf-dataset.ts) splits a run's rows: one `test` split (the default), by a
 * seed (train/validation/test by a hash of the video id, so a video never straddles splits and the same seed
 * gives the same split in every export), by a video metadata field (one split per value) or by label set (one
 * split per published label set that labels the video). A video's rows all go to its split(s); the dataset
 * card's `configs`/`data_files` name each split's shards (the Hub's convention).
 */

/** The single split of an unsplit export: an evaluation set. */
export const HF_DEFAULT_SPLIT = "test";
/** More splits than this is not a split any more (a field with a value per video): refused before writing. */
export const MAX_HF_SPLITS = 100;
/** Built-in video fields a metadata split may use (as the metadata files name them); the rest are `extra` keys. */
export const BUILT_IN_SPLIT_FIELDS = ["model", "seed", "sample_index", "dimension"] as const;
/** The split of videos without a value of the field, or labelled by no label set (renamed when a value takes it). */
const NO_VALUE_SPLIT = "none";
const UNLABELLED_SPLIT = "unlabelled";
/** `datasets` reserves "all" (every split at once). */
const RESERVED_SPLIT_NAMES = new Set(["all"]);
const SPLIT_NAME_MAX = 64;

/**
 * A video's seed split: SHA-256 of the seed and the video id as a number in [0, 1), against the cumulative
 * shares. Depends on nothing else, so the same seed puts a video in the same split whatever else is exported.
 */
export function seedSplitOf(videoId: string, seed: string, ratios: SeedRatios): (typeof HF_SEED_SPLITS)[number] {
  const digest = createHash("sha256").update(`${seed}\u0000${videoId}`).digest();
  const position = digest.readUIntBE(0, 6) / 2 ** 48;
  let end = 0;
  for (const name of HF_SEED_SPLITS) {
    end += ratios[name];
    if (position < end && ratios[name] > 0) return name;
  }
  // Rounding left the shares a hair under 1: the last split with a share takes the rest.
  return [...HF_SEED_SPLITS].reverse().find((name) => ratios[name] > 0) ?? "test";
}

/**
 * A value as a split name the Hub accepts (`\w+(\.\w+)*`), kept to ASCII letters, digits and underscores, so it
 * is also a portable file name: accents dropped, every other run of characters one `_`.
 */
export function hfSplitName(value: string): string {
  const name = value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, SPLIT_NAME_MAX)
    .replace(/_+$/, "");
  return name || "value";
}

/**
 * Split names for `[key, text]` pairs, in the order given: each text made a name, and a name already taken (or
 * reserved) gets `_2`, `_3`…, so two values that read alike ("a b", "a-b") still get a split each.
 */
export function uniqueSplitNames(entries: readonly (readonly [key: string, text: string])[]): Map<string, string> {
  const taken = new Set(RESERVED_SPLIT_NAMES);
  const names = new Map<string, string>();
  for (const [key, text] of entries) {
    if (names.has(key)) continue;
    const base = hfSplitName(text);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    names.set(key, name);
  }
  return names;
}

/** The fields a metadata split may use in the project: the built-in ones, then its videos' extra keys (sorted). */
export async function metadataSplitFields(prisma: PrismaClient, projectId: string): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ key: string }[]>`
    SELECT DISTINCT k."key" FROM "video" v, LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(v."extra") = 'object' THEN v."extra" ELSE '{}'::jsonb END) AS k("key")
    WHERE v."projectId" = ${projectId} ORDER BY k."key"`;
  const builtIn = new Set<string>(BUILT_IN_SPLIT_FIELDS);
  return [...BUILT_IN_SPLIT_FIELDS, ...rows.map((r) => r.key).filter((key) => !builtIn.has(key))];
}

export interface HfSplit {
  name: string;
  /** What the split holds, for the dataset card. */
  description: string;
}

export interface HfSplitPlan {
  spec: HfSplitSpec;
  /** Every split a video may go to, in the card's order (splits that get no rows are left out of the card). */
  splits: HfSplit[];
  /** The split(s) of a video's rows: one, except for a video several label sets label. */
  splitsOf(videoId: string): string[];
  /** The card's paragraph on how the rows were split. */
  summary: string;
}

type Video = {
  id: string;
  model: string | null;
  seed: string | null;
  sampleIndex: number | null;
  dimensions: string[];
  extra: Prisma.JsonValue;
};

function metadataValue(video: Video, field: string): string | null {
  const text = (value: unknown): string | null => {
    if (value === null || value === undefined || value === "") return null;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
  switch (field) {
    case "model":
      return text(video.model);
    case "seed":
      return text(video.seed);
    case "sample_index":
      return text(video.sampleIndex);
    case "dimension":
      // A video of several dimensions is in the split of all of them together, so it is in one split.
      return video.dimensions.length ? [...video.dimensions].sort().join("+") : null;
    default: {
      const extra =
        video.extra && typeof video.extra === "object" && !Array.isArray(video.extra)
          ? (video.extra as Record<string, unknown>)
          : {};
      return text(extra[field]);
    }
  }
}

function tooMany(count: number, what: string): ValidationError {
  return new ValidationError(`${what} would make ${count} splits; at most ${MAX_HF_SPLITS}.`);
}

/**
 * The split of each of the run's exported videos (`videoIds`: SQL selecting them), worked out before the
 * export starts, so that a field that is not the project's, or one with too many values, is a 400 rather than
 * a broken download. The field is looked up among the project's fields and read from the rows in code, never
 * put into SQL.
 */
export async function planHfSplits(
  prisma: PrismaClient,
  input: { projectId: string; runId: string; pipeline: string; videoIds: Prisma.Sql; spec: HfSplitSpec },
): Promise<HfSplitPlan> {
  const { spec } = input;
  if (spec.kind === "none")
    return {
      spec,
      splits: [{ name: HF_DEFAULT_SPLIT, description: "every row" }],
      splitsOf: () => [HF_DEFAULT_SPLIT],
      summary: `One split, \`${HF_DEFAULT_SPLIT}\`.`,
    };
  if (spec.kind === "seed") {
    const shares = HF_SEED_SPLITS.filter((name) => spec.ratios[name] > 0);
    return {
      spec,
      splits: shares.map((name) => ({
        name,
        description: `${Math.round(spec.ratios[name] * 1000) / 10}% of the videos, by the seed`,
      })),
      splitsOf: (videoId) => [seedSplitOf(videoId, spec.seed, spec.ratios)],
      summary: `By seed \`${spec.seed}\`: each video goes to ${shares.map((name) => `\`${name}\` (${spec.ratios[name]})`).join(", ")} by SHA-256 of the seed and its id, so all of a video's rows are in one split and the same seed splits every export of these videos the same way.`,
    };
  }
  const runVideoIds = Prisma.sql`SELECT rv."videoId" FROM "run_video" rv WHERE rv."runId" = ${input.runId} AND rv."videoId" IN (${input.videoIds})`;
  if (spec.kind === "metadata") {
    const fields = await metadataSplitFields(prisma, input.projectId);
    if (!fields.includes(spec.field))
      throw new ValidationError(
        `"${spec.field}" is not a metadata field of this project; one of: ${fields.join(", ")}.`,
      );
    // Every metadata column, whichever the field: the field picks among them in code.
    const videos = await prisma.$queryRaw<Video[]>`
      SELECT v."id", v."model", v."seed", v."sampleIndex", v."dimensions", v."extra" FROM "video" v WHERE v."id" IN (${runVideoIds})`;
    const valueOf = new Map(videos.map((v) => [v.id, metadataValue(v, spec.field)]));
    const values = [...new Set([...valueOf.values()].filter((v): v is string => v !== null))].sort();
    const hasNone = [...valueOf.values()].some((v) => v === null);
    if (values.length + (hasNone ? 1 : 0) > MAX_HF_SPLITS)
      throw tooMany(values.length + (hasNone ? 1 : 0), `The field "${spec.field}"`);
    // The values' own names first; the no-value split takes what is left of "none" (its key is no value's).
    const noValueKey = "\u0000";
    const names = uniqueSplitNames([
      ...values.map((value) => [value, value] as const),
      ...(hasNone ? [[noValueKey, NO_VALUE_SPLIT] as const] : []),
    ]);
    const nameOfValue = (value: string | null) => names.get(value ?? noValueKey)!;
    return {
      spec,
      splits: [
        ...values.map((value) => ({ name: nameOfValue(value), description: `${spec.field} = ${value}` })),
        ...(hasNone ? [{ name: nameOfValue(null), description: `no ${spec.field}` }] : []),
      ],
      splitsOf: (videoId) => [nameOfValue(valueOf.get(videoId) ?? null)],
      summary: `By the videos' \`${spec.field}\`: one split per value (its name made of letters, digits and \`_\`, as the Hub requires), each video in the split of its value${hasNone ? `, videos without one in \`${nameOfValue(null)}\`` : ""}.`,
    };
  }
  const labelled = await prisma.$queryRaw<{ videoId: string; labelSetId: string; name: string }[]>`
    SELECT DISTINCT h."videoId", h."labelSetId", ls."name" FROM "human_judgment" h JOIN "label_set" ls ON ls."id" = h."labelSetId"
    WHERE h."projectId" = ${input.projectId} AND h."task" = ${input.pipeline} AND NOT h."withdrawn" AND h."videoId" IN (${runVideoIds})`;
  if (labelled.length === 0)
    throw new ValidationError(
      "No label set labels this run's videos: import one (Label sets) or choose another split.",
    );
  const labelSets = [...new Map(labelled.map((r) => [r.labelSetId, r.name])).entries()].sort(
    (a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]),
  );
  if (labelSets.length + 1 > MAX_HF_SPLITS) throw tooMany(labelSets.length + 1, "The label sets");
  // Named after the label sets' names, keyed by id (two sets whose names read alike get a split each); the
  // videos none labels last (its key is no id).
  const unlabelledKey = "";
  const nameOf = uniqueSplitNames([...labelSets, [unlabelledKey, UNLABELLED_SPLIT] as const]);
  const setsOfVideo = new Map<string, string[]>();
  for (const r of labelled) setsOfVideo.set(r.videoId, [...(setsOfVideo.get(r.videoId) ?? []), r.labelSetId]);
  const order = new Map(labelSets.map(([id], i) => [id, i]));
  return {
    spec,
    splits: [
      ...labelSets.map(([id, name]) => ({
        name: nameOf.get(id)!,
        description: `the videos label set "${name}" labels`,
      })),
      { name: nameOf.get(unlabelledKey)!, description: "the videos no label set labels" },
    ],
    splitsOf: (videoId) => {
      const sets = setsOfVideo.get(videoId);
      return sets
        ? [...sets].sort((a, b) => order.get(a)! - order.get(b)!).map((id) => nameOf.get(id)!)
        : [nameOf.get(unlabelledKey)!];
    },
    summary: `By label set: one split per published label set that labels the run's videos (for this task), holding every row of those videos; a video several label sets label is in each of their splits; videos none labels are in \`${nameOf.get(unlabelledKey)}\`.`,
  };
}
