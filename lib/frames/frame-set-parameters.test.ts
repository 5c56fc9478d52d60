import { describe, expect, it } from "vitest";
import {
  checkFrameManifest,
  type FrameManifest,
  frameManifestSchema,
  frameSetCountsLine,
  frameSetParametersKey,
  normaliseFrameSetParameters,
  validateManifest,
} from "./frame-set-parameters";

describe("normaliseFrameSetParameters", () => {
  it("fills the defaults of each mode", () => {
    expect(normaliseFrameSetParameters({ mode: "density-peaks" })).toEqual({
      mode: "density-peaks",
      sampleFps: 4,
      keyFrames: "auto",
      neighbours: 2,
      maxSide: 768,
      jpegQuality: 0.85,
    });
    expect(normaliseFrameSetParameters({ mode: "scene-change" })).toEqual({
      mode: "scene-change",
      sampleFps: 4,
      threshold: "auto",
      minGapS: 1,
      maxKeyFrames: 12,
      neighbours: 2,
      maxSide: 768,
      jpegQuality: 0.85,
    });
    expect(normaliseFrameSetParameters({ mode: "uniform" })).toEqual({
      mode: "uniform",
      count: 8,
      maxSide: 768,
      jpegQuality: 0.85,
    });
  });

  it("keeps given values and is idempotent", () => {
    const once = normaliseFrameSetParameters({ mode: "uniform", count: 16, jpegQuality: 0.5 });
    expect(once).toMatchObject({ count: 16, jpegQuality: 0.5 });
    expect(normaliseFrameSetParameters(once)).toEqual(once);
    expect(normaliseFrameSetParameters({ mode: "density-peaks", keyFrames: 7 })).toMatchObject({ keyFrames: 7 });
  });

  it.each([
    ["an unknown mode", { mode: "random" }],
    ["no mode", { sampleFps: 4 }],
    ["too low a sample rate", { mode: "density-peaks", sampleFps: 0.1 }],
    ["too high a sample rate", { mode: "density-peaks", sampleFps: 31 }],
    ["zero key frames", { mode: "density-peaks", keyFrames: 0 }],
    ["65 key frames", { mode: "density-peaks", keyFrames: 65 }],
    ["fractional key frames", { mode: "density-peaks", keyFrames: 2.5 }],
    ["a key-frame word other than auto", { mode: "density-peaks", keyFrames: "many" }],
    ["9 neighbours", { mode: "density-peaks", neighbours: 9 }],
    ["a tiny maxSide", { mode: "density-peaks", maxSide: 32 }],
    ["a low JPEG quality", { mode: "density-peaks", jpegQuality: 0.2 }],
    ["a zero threshold", { mode: "scene-change", threshold: 0 }],
    ["a negative gap", { mode: "scene-change", minGapS: -1 }],
    ["no key frames", { mode: "scene-change", maxKeyFrames: 0 }],
    ["65 uniform frames", { mode: "uniform", count: 65 }],
    ["an unknown key", { mode: "uniform", count: 8, fps: 4 }],
    ["a key of another mode", { mode: "uniform", neighbours: 2 }],
  ])("rejects %s", (_, input) => {
    expect(() => normaliseFrameSetParameters(input)).toThrow();
  });
});

describe("frameSetParametersKey", () => {
  it("is canonical JSON with sorted keys and defaults filled", () => {
    expect(frameSetParametersKey({ mode: "density-peaks" })).toBe(
      '{"jpegQuality":0.85,"keyFrames":"auto","maxSide":768,"mode":"density-peaks","neighbours":2,"sampleFps":4}',
    );
  });

  it("is the same for equal parameters in any key order, with or without defaults", () => {
    const key = frameSetParametersKey({ mode: "scene-change", threshold: 0.4, sampleFps: 2 });
    expect(frameSetParametersKey({ sampleFps: 2, threshold: 0.4, mode: "scene-change" })).toBe(key);
    expect(
      frameSetParametersKey({
        jpegQuality: 0.85,
        maxSide: 768,
        neighbours: 2,
        maxKeyFrames: 12,
        minGapS: 1,
        threshold: 0.4,
        sampleFps: 2.0,
        mode: "scene-change",
      }),
    ).toBe(key);
  });

  it("differs when any parameter differs", () => {
    const base = frameSetParametersKey({ mode: "density-peaks" });
    expect(frameSetParametersKey({ mode: "density-peaks", sampleFps: 2 })).not.toBe(base);
    expect(frameSetParametersKey({ mode: "density-peaks", keyFrames: 3 })).not.toBe(base);
    expect(frameSetParametersKey({ mode: "density-peaks", jpegQuality: 0.9 })).not.toBe(base);
    expect(frameSetParametersKey({ mode: "uniform", count: 8 })).not.toBe(
      frameSetParametersKey({ mode: "uniform", count: 16 }),
    );
    expect(frameSetParametersKey({ mode: "scene-change" })).not.toBe(base);
  });
});

const validManifest: FrameManifest = [
  { name: "00000.jpg", index: 0, timestampS: 0, isKeyFrame: false, cluster: 1 },
  { name: "00001.jpg", index: 1, timestampS: 0.25, isKeyFrame: true, cluster: 1 },
  { name: "00002.jpg", index: 2, timestampS: 0.5, isKeyFrame: false, cluster: 1 },
  { name: "00003.jpeg", index: 3, timestampS: 0.75, isKeyFrame: false, cluster: null },
  { name: "00004.JPG", index: 4, timestampS: 0.75, isKeyFrame: true, cluster: 4 },
];

function withFrame(index: number, change: Partial<FrameManifest[number]>): FrameManifest {
  return validManifest.map((frame) => (frame.index === index ? { ...frame, ...change } : frame));
}

describe("validateManifest", () => {
  it("accepts a consistent manifest, in any order", () => {
    expect(validateManifest(validManifest)).toEqual([]);
    expect(validateManifest([...validManifest].reverse())).toEqual([]);
  });

  it.each<[string, FrameManifest, RegExp]>([
    ["no frames", [], /no frames/],
    ["a duplicate name", withFrame(2, { name: "00001.jpg" }), /"00001\.jpg" is used more than once/],
    ["names differing only in case", withFrame(2, { name: "00001.JPG" }), /used more than once/],
    ["a duplicate index", withFrame(3, { index: 2 }), /index 2 is used more than once/],
    ["a gap in the indices", withFrame(3, { index: 7 }), /missing 3/],
    [
      "indices not starting at 0",
      validManifest.map((frame) => ({
        ...frame,
        index: frame.index + 1,
        cluster: frame.cluster === null ? null : frame.cluster + 1,
      })),
      /missing 0/,
    ],
    ["a timestamp going back", withFrame(2, { timestampS: 0.1 }), /Frame 2 \(0\.1 s\) is earlier than frame 1/],
    ["a cluster that is not a key frame", withFrame(2, { cluster: 0 }), /Frame 2's cluster 0 is not a key frame/],
    ["a cluster that is not a frame", withFrame(3, { cluster: 9 }), /Frame 3's cluster 9 is not a frame index/],
    ["a key frame in another cluster", withFrame(4, { cluster: 1 }), /Key frame 4 must be in its own cluster/],
    ["a key frame in no cluster", withFrame(1, { cluster: null }), /Key frame 1 must be in its own cluster/],
  ])("reports %s", (_, manifest, problem) => {
    const problems = validateManifest(manifest);
    expect(problems.some((message) => problem.test(message))).toBe(true);
  });
});

describe("frameManifestSchema", () => {
  const entry = validManifest[0]!;

  it.each([
    ["a slash", "frames/00000.jpg"],
    ["a backslash", "..\\00000.jpg"],
    ["a control character", "000\n00.jpg"],
    ["a leading dot", ".hidden.jpg"],
    ["another extension", "00000.png"],
    ["no name", ""],
  ])("rejects a name with %s", (_, name) => {
    expect(frameManifestSchema.safeParse([{ ...entry, name }]).success).toBe(false);
  });

  it("rejects bad numbers and unknown keys", () => {
    expect(frameManifestSchema.safeParse([{ ...entry, index: -1 }]).success).toBe(false);
    expect(frameManifestSchema.safeParse([{ ...entry, index: 0.5 }]).success).toBe(false);
    expect(frameManifestSchema.safeParse([{ ...entry, timestampS: -0.1 }]).success).toBe(false);
    expect(frameManifestSchema.safeParse([{ ...entry, cluster: 1.5 }]).success).toBe(false);
    expect(frameManifestSchema.safeParse([{ ...entry, path: "/etc/passwd" }]).success).toBe(false);
    expect(frameManifestSchema.safeParse([entry]).success).toBe(true);
  });
});

describe("checkFrameManifest", () => {
  it("combines the schema and the cross-checks", () => {
    expect(checkFrameManifest(validManifest)).toEqual({ ok: true, manifest: validManifest });
    const badSchema = checkFrameManifest([{ ...validManifest[0], name: "a/b.jpg" }]);
    expect(badSchema.ok).toBe(false);
    if (!badSchema.ok) expect(badSchema.problems.join("\n")).toMatch(/^0\.name: .*slashes/);
    const inconsistent = checkFrameManifest(withFrame(2, { cluster: 0 }));
    expect(inconsistent).toEqual({ ok: false, problems: ["Frame 2's cluster 0 is not a key frame."] });
  });
});

describe("frameSetCountsLine", () => {
  it("reads a uniform set as frames at their times and a key-frame set by both counts", () => {
    const frames = (keys: number, all: number) => Array.from({ length: all }, (_, i) => ({ isKeyFrame: i < keys }));
    expect(frameSetCountsLine({ mode: "uniform" }, frames(64, 64))).toBe("64 uniform frames");
    expect(frameSetCountsLine({ mode: "density-peaks" }, frames(4, 32))).toBe("4 key frames, 32 frames");
  });
});
