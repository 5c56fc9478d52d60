import { z } from "zod";

/**
 * Parameters of a frame set. Together with the video's sha256 they identify it: the server hashes
 * frameSetParametersKey(parameters) with the video hash, so extracting again with equal parameters
 * (however they were spelled) is detected.
 *
 * Objects are strict: an unknown key is far more likely a typo than something to ignore silently.
 */

const sampleFpsSchema = z.number().min(0.25).max(30).default(4);
const neighboursSchema = z.int().min(0).max(8).default(2);
const maxSideSchema = z.int().min(64).max(4096).default(768);
const jpegQualitySchema = z.number().min(0.3).max(1).default(0.85);

export const densityPeaksParametersSchema = z.strictObject({
  mode: z.literal("density-peaks"),
  /** Frames per second sampled uniformly before key-frame selection. */
  sampleFps: sampleFpsSchema,
  /** "auto": defaultKeyFrameCount(duration). */
  keyFrames: z.union([z.int().min(1).max(64), z.literal("auto")]).default("auto"),
  /** Sampled frames on each side of a key frame that join its cluster. */
  neighbours: neighboursSchema,
  /** Longest side of the stored JPEGs, in pixels. */
  maxSide: maxSideSchema,
  jpegQuality: jpegQualitySchema,
});

export const sceneChangeParametersSchema = z.strictObject({
  mode: z.literal("scene-change"),
  sampleFps: sampleFpsSchema,
  /** In featureDistance units, which lie in [0, √2]; "auto": mean + 2·std of consecutive distances. */
  threshold: z.union([z.number().gt(0).max(Math.SQRT2), z.literal("auto")]).default("auto"),
  /** Minimum time between two key frames, converted to ceil(minGapS·sampleFps) sampled frames (at least 1). */
  minGapS: z.number().min(0).max(60).default(1),
  /** Frame 0 included. */
  maxKeyFrames: z.int().min(1).max(64).default(12),
  neighbours: neighboursSchema,
  maxSide: maxSideSchema,
  jpegQuality: jpegQualitySchema,
});

export const uniformParametersSchema = z.strictObject({
  mode: z.literal("uniform"),
  /** Item runs use 8 or 16 (say, a video QA benchmark). */
  count: z.int().min(1).max(64).default(8),
  maxSide: maxSideSchema,
  jpegQuality: jpegQualitySchema,
});

export const frameSetParametersSchema = z.discriminatedUnion("mode", [
  densityPeaksParametersSchema,
  sceneChangeParametersSchema,
  uniformParametersSchema,
]);

export type FrameSetParametersInput = z.input<typeof frameSetParametersSchema>;
export type FrameSetParameters = z.output<typeof frameSetParametersSchema>;

/** Validates and fills defaults; throws a ZodError on invalid input. Idempotent. */
export function normaliseFrameSetParameters(input: unknown): FrameSetParameters {
  return frameSetParametersSchema.parse(input);
}

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function sortKeysDeep(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep(value[key] ?? null)]),
    );
  }
  return value;
}

/**
 * Canonical JSON of the normalised parameters (defaults filled, keys sorted), e.g.
 * {"jpegQuality":0.85,"keyFrames":"auto","maxSide":768,"mode":"density-peaks","neighbours":2,"sampleFps":4}.
 * Equal parameter sets give equal keys however they were written.
 */
export function frameSetParametersKey(parameters: FrameSetParametersInput): string {
  const normalised: JsonValue = normaliseFrameSetParameters(parameters);
  return JSON.stringify(sortKeysDeep(normalised));
}

// ---- Manifest of an extracted frame set ----

// C0 and C1 control characters (including DEL).
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

export const frameFileNameSchema = z
  .string()
  .min(1)
  .max(200)
  .refine((name) => !CONTROL_CHARACTERS.test(name), "A frame file name must not contain control characters.")
  .refine((name) => !/[/\\]/.test(name), "A frame file name must not contain slashes.")
  .refine((name) => !name.startsWith("."), "A frame file name must not start with a dot.")
  .refine((name) => /\.jpe?g$/i.test(name), "A frame file name must end in .jpg or .jpeg.");

export const frameManifestEntrySchema = z.strictObject({
  name: frameFileNameSchema,
  index: z.int().min(0),
  timestampS: z.number().min(0),
  isKeyFrame: z.boolean(),
  /** Index of the key frame whose cluster this frame belongs to; null when in none. */
  cluster: z.int().min(0).nullable(),
});

export const frameManifestSchema = z.array(frameManifestEntrySchema);

export type FrameManifestEntry = z.output<typeof frameManifestEntrySchema>;
export type FrameManifest = z.output<typeof frameManifestSchema>;

/**
 * Cross-checks the schema cannot express. Returns human-readable problems, empty when the manifest is
 * consistent. Names are compared case-insensitively because they become files on disks that may be.
 *
 * A key-frame set (density peaks, scene changes) numbers its frames 0…n−1, in time order. A uniform set
 * stores each frame under its index among the video's decoded frames (lib/frames/vbench-uniform.ts), so its
 * indices have gaps; every one of its frames is a key frame in its own cluster.
 */
export function validateManifest(
  manifest: FrameManifest,
  mode: FrameSetParameters["mode"] = "density-peaks",
): string[] {
  const problems: string[] = [];
  if (manifest.length === 0) return ["The manifest lists no frames."];

  const namesSeen = new Set<string>();
  const reportedNames = new Set<string>();
  for (const { name } of manifest) {
    const folded = name.toLowerCase();
    if (namesSeen.has(folded) && !reportedNames.has(folded)) {
      problems.push(`The file name "${name}" is used more than once.`);
      reportedNames.add(folded);
    }
    namesSeen.add(folded);
  }

  const byIndex = new Map<number, FrameManifestEntry>();
  const reportedIndices = new Set<number>();
  for (const entry of manifest) {
    if (byIndex.has(entry.index) && !reportedIndices.has(entry.index)) {
      problems.push(`Frame index ${entry.index} is used more than once.`);
      reportedIndices.add(entry.index);
    }
    if (!byIndex.has(entry.index)) byIndex.set(entry.index, entry);
  }

  const missing: number[] = [];
  if (mode !== "uniform")
    for (let index = 0; index < manifest.length; index++) if (!byIndex.has(index)) missing.push(index);
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).join(", ");
    problems.push(
      `Frame indices must run from 0 to ${manifest.length - 1} without gaps; missing ${shown}${missing.length > 10 ? ", …" : ""}.`,
    );
  }

  const ordered = [...byIndex.values()].sort((a, b) => a.index - b.index);
  for (let position = 1; position < ordered.length; position++) {
    const previous = ordered[position - 1];
    const current = ordered[position];
    if (previous && current && current.timestampS < previous.timestampS) {
      problems.push(
        `Frame ${current.index} (${current.timestampS} s) is earlier than frame ${previous.index} (${previous.timestampS} s).`,
      );
    }
  }

  if (mode === "uniform") {
    const notKeyFrames = manifest.filter((entry) => !entry.isKeyFrame).map((entry) => entry.index);
    if (notKeyFrames.length > 0)
      problems.push(
        `In a uniform frame set every frame is a key frame; ${notKeyFrames.slice(0, 10).join(", ")}${notKeyFrames.length > 10 ? ", …" : ""} are not.`,
      );
  }

  for (const entry of manifest) {
    if (entry.isKeyFrame && entry.cluster !== entry.index) {
      problems.push(
        `Key frame ${entry.index} must be in its own cluster (cluster ${entry.index}), not ${entry.cluster ?? "none"}.`,
      );
      continue;
    }
    if (entry.cluster === null) continue;
    const keyFrame = byIndex.get(entry.cluster);
    if (!keyFrame) problems.push(`Frame ${entry.index}'s cluster ${entry.cluster} is not a frame index.`);
    else if (!keyFrame.isKeyFrame) problems.push(`Frame ${entry.index}'s cluster ${entry.cluster} is not a key frame.`);
  }
  return problems;
}

export type ManifestCheck = { ok: true; manifest: FrameManifest } | { ok: false; problems: string[] };

/** Schema validation then validateManifest, for untrusted input (e.g. an upload's manifest.json). */
export function checkFrameManifest(input: unknown, mode?: FrameSetParameters["mode"]): ManifestCheck {
  const parsed = frameManifestSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) =>
        issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message,
      ),
    };
  }
  const problems = validateManifest(parsed.data, mode);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, manifest: parsed.data };
}

/**
 * How a stored frame set reads in a progress line: a uniform set's frames are frames at their times, with no key
 * frames or clusters ("64 uniform frames"); a key-frame set names both counts ("4 key frames, 32 frames").
 */
export function frameSetCountsLine(
  parameters: Pick<FrameSetParameters, "mode">,
  manifest: readonly { isKeyFrame: boolean }[],
): string {
  if (parameters.mode === "uniform") return `${manifest.length} uniform frames`;
  return `${manifest.filter((frame) => frame.isKeyFrame).length} key frames, ${manifest.length} frames`;
}
