import { describe, expect, it } from "vitest";
import {
  parseVideoPath,
  sanitizeDisplayName,
  utf8ByteLength,
  type ParsedVideoPath,
  type ParseVideoPathOptions,
} from "./parse-video-path";
import { buildPromptIndex, parsePromptList } from "./prompt-lists";
import { readVbenchFile, readVbenchInfo } from "../../testkit/import/vbench-prompt-files";

function parsed(relativePath: string, options?: ParseVideoPathOptions): ParsedVideoPath {
  const result = parseVideoPath(relativePath, options);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function rejection(relativePath: string): { error: string; reason: string } {
  const result = parseVideoPath(relativePath);
  if (result.ok) throw new Error(`expected ${JSON.stringify(relativePath)} to be rejected`);
  return { error: result.error, reason: result.reason };
}

const vbenchList = parsePromptList("VBench2_full_text_info.json", readVbenchFile("VBench2_full_text_info.json"));
const vbenchIndex = buildPromptIndex(vbenchList.ok ? vbenchList.entries : []);
const WOODEN_TOY = "A wooden toy is placed gently on the surface of a small bowl of water.";

describe("parseVideoPath: VBench names without a prompt index", () => {
  it("reads layout A: model folder, dimension folder, prompt and sample index", () => {
    expect(parsed("kling-1.6/Camera_Motion/Garden, zoom in.-2.mp4")).toEqual({
      fileName: "Garden, zoom in.-2.mp4",
      prompt: "Garden, zoom in.",
      promptTruncated: "Garden, zoom in.",
      sampleIndex: 2,
      dimensions: ["Camera_Motion"],
      model: "kling-1.6",
      matchedPromptList: false,
      auxiliaryInfo: {},
      layout: "vbench-dimension",
    });
  });

  it("reads layout B (flat) and Windows separators", () => {
    const video = parsed("wan2.1\\A man is playing basketball.-19.MP4");
    expect(video).toMatchObject({
      prompt: "A man is playing basketball.",
      sampleIndex: 19,
      dimensions: [],
      model: "wan2.1",
      layout: "vbench-flat",
    });
  });

  it("takes the generator from the folder right above the dimension folder, as VBench-2.0 saves samples (samples/<model>/<Dimension>/…)", () => {
    expect(parsed("samples/kling-1.6/Camera_Motion/Garden, zoom in.-2.mp4")).toMatchObject({
      model: "kling-1.6",
      dimensions: ["Camera_Motion"],
      layout: "vbench-dimension",
    });
    expect(parsed("lab/runs/2025/wan2.1/Complex_Plot/A relay race.-0.mp4")).toMatchObject({
      model: "wan2.1",
      dimensions: ["Complex_Plot"],
    });
    // With no folder above it, a folder below the dimension folder; with no dimension folder, the folder holding the file.
    expect(parsed("Mechanics/hunyuan/A cup.-0.mp4")).toMatchObject({ model: "hunyuan", dimensions: ["Mechanics"] });
    expect(parsed("samples/wan2.1/A man is playing basketball.-19.mp4")).toMatchObject({
      model: "wan2.1",
      layout: "vbench-flat",
    });
    expect(parsed("samples/kling-1.6/Camera_Motion/Garden, zoom in.-2.mp4", { model: "Kling 1.6" }).model).toBe(
      "Kling 1.6",
    );
  });

  it("recognises a loosely spelled dimension folder at the top level (no model)", () => {
    expect(parsed("multi view consistency/A cup.-0.webm")).toMatchObject({
      dimensions: ["Multi-View_Consistency"],
      model: null,
    });
  });

  it("lets the model from the import form win over a model folder", () => {
    expect(parsed("outputs/Mechanics/A cup.-0.mov", { model: "HunyuanVideo" }).model).toBe("HunyuanVideo");
    expect(parsed("outputs/Mechanics/A cup.-0.mov", { model: "  " }).model).toBe("outputs");
  });

  it("takes only the last -<digits> as the sample index", () => {
    expect(parsed("Complex_Plot/Team A won the final set 15-12.-1.mp4")).toMatchObject({
      promptTruncated: "Team A won the final set 15-12.",
      sampleIndex: 1,
    });
    expect(parsed("A score of 1-0-2.mkv")).toMatchObject({ promptTruncated: "A score of 1-0", sampleIndex: 2 });
  });

  it("gives no prompt (null, never the file name) for a name that is not <prompt>-<index>", () => {
    expect(parsed("12.mp4")).toMatchObject({ prompt: null, promptTruncated: null, sampleIndex: null, layout: "other" });
    expect(parsed("misc/my clip.m4v")).toMatchObject({
      prompt: null,
      promptTruncated: null,
      sampleIndex: null,
      layout: "other",
      model: "misc",
    });
    expect(parsed("-3.mp4")).toMatchObject({ prompt: null, sampleIndex: null });
    // A 7-digit run is a timestamp or id, not a sample index, so this is no VBench name either.
    expect(parsed("render-1700000.mp4")).toMatchObject({ prompt: null, sampleIndex: null });
    // In a dimension folder too: the folder gives the dimension, not a prompt.
    expect(parsed("Mechanics/clip.mp4")).toMatchObject({
      prompt: null,
      sampleIndex: null,
      dimensions: ["Mechanics"],
      layout: "vbench-dimension",
    });
  });

  it("gives no prompt when the part before -<index> has no letter (a number or a date)", () => {
    expect(parsed("12-0.mp4")).toMatchObject({
      prompt: null,
      promptTruncated: null,
      sampleIndex: null,
      layout: "other",
    });
    expect(parsed("2024-05-01.mp4")).toMatchObject({ prompt: null, sampleIndex: null });
    expect(parsed("Mechanics/0001-2.mp4")).toMatchObject({ prompt: null, sampleIndex: null });
  });

  it("reads any VBench-shaped name whose prompt part has a letter, in any script", () => {
    expect(parsed("a-0.mp4")).toMatchObject({ prompt: "a", sampleIndex: 0, layout: "vbench-flat" });
    expect(parsed("東京の夜景-3.mp4")).toMatchObject({ prompt: "東京の夜景", sampleIndex: 3 });
    expect(parsed("3 cats-1.mp4")).toMatchObject({ prompt: "3 cats", sampleIndex: 1 });
  });

  it("takes a name that is not VBench-shaped as a prompt only when a prompt list knows it", () => {
    const index = buildPromptIndex([
      { prompt: "12", dimensions: [] },
      { prompt: "my clip", dimensions: ["Material"] },
    ]);
    expect(parsed("12.mp4", { promptIndex: index })).toMatchObject({ prompt: "12", matchedPromptList: true });
    expect(parsed("my clip.mp4", { promptIndex: index })).toMatchObject({
      prompt: "my clip",
      dimensions: ["Material"],
      matchedPromptList: true,
    });
    expect(parsed("other clip.mp4", { promptIndex: index })).toMatchObject({ prompt: null, matchedPromptList: false });
  });

  it("keeps quotes, commas and unicode in the prompt", () => {
    const video = parsed(`Material/A "glass" cup, café ☕ — 東京.-0.mp4`);
    expect(video.prompt).toBe(`A "glass" cup, café ☕ — 東京.`);
    expect(video.sampleIndex).toBe(0);
  });
});

describe("parseVideoPath: with the real VBench prompt index", () => {
  it("restores the full prompt of every long VBench prompt from its 180-character file name", () => {
    const info = readVbenchInfo();
    const longOnes = Object.values(info).filter((record) => record.caption.length > 180);
    expect(longOnes.length).toBeGreaterThan(50);
    for (const record of longOnes) {
      const fileName = `${record.caption.slice(0, 180)}-1.mp4`;
      const video = parsed(`cogvideox/${fileName}`, { promptIndex: vbenchIndex });
      expect(video.promptTruncated).toHaveLength(180);
      expect(video.prompt).toBe(record.caption);
      expect(video.sampleIndex).toBe(1);
      expect(video.matchedPromptList).toBe(true);
      expect(video.dimensions.slice().sort()).toEqual([...record.dimension].sort());
    }
  });

  it("restores prompts whose truncation ends in a space (the name has ' -0')", () => {
    const info = readVbenchInfo();
    const spaceEnded = Object.keys(info).filter((key) => key.endsWith(" "));
    expect(spaceEnded.length).toBeGreaterThan(0);
    for (const key of spaceEnded) {
      expect(parsed(`Complex_Plot/${key}-0.mp4`, { promptIndex: vbenchIndex }).prompt).toBe(info[key]!.caption);
    }
  });

  it("restores a prompt from a macOS (NFD) file name", () => {
    const index = buildPromptIndex([{ prompt: "Un café à Paris.", dimensions: ["Material"] }]);
    const video = parsed(`${"Un café à Paris.".normalize("NFD")}-0.mp4`, { promptIndex: index });
    expect(video).toMatchObject({ prompt: "Un café à Paris.", dimensions: ["Material"], matchedPromptList: true });
  });

  it("restores real prompts with non-ASCII punctuation (’ ° —)", () => {
    const nonAscii = Object.values(readVbenchInfo()).filter((record) => /[’°—]/.test(record.caption));
    expect(nonAscii.length).toBeGreaterThan(10);
    for (const record of nonAscii) {
      expect(parsed(`${record.caption.slice(0, 180)}-2.mp4`, { promptIndex: vbenchIndex }).prompt).toBe(record.caption);
    }
  });

  it("gives a flat-layout prompt every dimension it is listed in", () => {
    expect(parsed(`${WOODEN_TOY}-7.mp4`, { promptIndex: vbenchIndex }).dimensions).toEqual(["Diversity", "Mechanics"]);
  });

  it("keeps the folder's dimension in layout A even when the prompt is in several", () => {
    const video = parsed(`veo/Mechanics/${WOODEN_TOY}-0.mp4`, { promptIndex: vbenchIndex });
    expect(video.dimensions).toEqual(["Mechanics"]);
    expect(video.matchedPromptList).toBe(true);
  });

  it("marks a name no list knows as unmatched, keeping the name's prompt", () => {
    const video = parsed("Mechanics/Not a VBench prompt.-0.mp4", { promptIndex: vbenchIndex });
    expect(video).toMatchObject({
      prompt: "Not a VBench prompt.",
      matchedPromptList: false,
      dimensions: ["Mechanics"],
    });
  });
});

describe("parseVideoPath: prompts that end in -<digits>", () => {
  const index = buildPromptIndex([
    { prompt: "Fireworks over the city in 2024-2025", dimensions: ["Thermotics"] },
    { prompt: "Highlights of season-3", dimensions: ["Complex_Plot"] },
    { prompt: "Highlights of season", dimensions: ["Material"] },
  ]);

  it("reads the last -<digits> as the index when the rest is a known prompt", () => {
    expect(parsed("Fireworks over the city in 2024-2025-1.mp4", { promptIndex: index })).toMatchObject({
      prompt: "Fireworks over the city in 2024-2025",
      sampleIndex: 1,
      dimensions: ["Thermotics"],
      matchedPromptList: true,
    });
  });

  it("reads the whole stem as the prompt when only that is a known prompt", () => {
    expect(parsed("Fireworks over the city in 2024-2025.mp4", { promptIndex: index })).toMatchObject({
      prompt: "Fireworks over the city in 2024-2025",
      sampleIndex: null,
      matchedPromptList: true,
    });
  });

  it("prefers prompt + index suffix when both readings name a known prompt", () => {
    expect(parsed("Highlights of season-3.mp4", { promptIndex: index })).toMatchObject({
      prompt: "Highlights of season",
      sampleIndex: 3,
      dimensions: ["Material"],
    });
  });

  it("disambiguates prompts sharing their first 180 characters by the dimension folder", () => {
    const shared = "y".repeat(180);
    const twins = buildPromptIndex([
      { prompt: `${shared} one`, dimensions: ["Mechanics"] },
      { prompt: `${shared} two`, dimensions: ["Material"] },
    ]);
    expect(parsed(`Material/${shared}-0.mp4`, { promptIndex: twins }).prompt).toBe(`${shared} two`);
    expect(parsed(`${shared}-0.mp4`, { promptIndex: twins })).toMatchObject({
      prompt: shared,
      matchedPromptList: false,
    });
  });
});

describe("parseVideoPath: rejections", () => {
  it("rejects .. and . segments", () => {
    expect(rejection("../secret/a-0.mp4")).toEqual({
      reason: "unsafe_path",
      error: expect.stringContaining('contains a ".." segment'),
    });
    expect(rejection("Mechanics/..\\a-0.mp4").error).toContain('".."');
    expect(rejection("./a-0.mp4").error).toContain('"." segment');
  });

  it("rejects empty segments: leading, trailing and doubled separators", () => {
    for (const bad of ["/abs/a-0.mp4", "Mechanics//a-0.mp4", "Mechanics/", "a\\\\b-0.mp4"]) {
      expect(rejection(bad).error).toContain("empty folder or file name");
    }
    expect(rejection("").error).toBe("The file path is empty.");
  });

  it("rejects control characters, naming the code point without echoing it", () => {
    for (const [bad, label] of [
      ["a\u0000b-0.mp4", "U+0000"],
      ["line\nbreak-0.mp4", "U+000A"],
      ["tab\there-0.mp4", "U+0009"],
      ["del\u007f-0.mp4", "U+007F"],
    ] as const) {
      const { error, reason } = rejection(bad);
      expect(reason).toBe("unsafe_path");
      expect(error).toContain(label);
      expect(error).not.toMatch(/[\u0000-\u001f\u007f]/);
    }
  });

  it("rejects a file name over 255 UTF-8 bytes, including 300+ byte names", () => {
    expect(parseVideoPath(`${"a".repeat(251)}.mp4`).ok).toBe(true);
    expect(rejection(`${"a".repeat(252)}.mp4`).error).toContain("256 bytes long; a file name may be at most 255 bytes");
    // 100 three-byte characters: short in characters, 304 bytes on disk.
    expect(rejection(`${"東".repeat(100)}.mp4`).error).toContain("304 bytes");
  });

  it("rejects a path over 1024 bytes", () => {
    const deep = `${Array.from({ length: 11 }, () => "d".repeat(99)).join("/")}/a-0.mp4`;
    expect(utf8ByteLength(deep)).toBeGreaterThan(1024);
    expect(rejection(deep).error).toContain("a path may be at most 1024 bytes");
  });

  it("rejects names that are not videos, with the accepted extensions", () => {
    expect(rejection("Mechanics/notes.txt")).toEqual({
      reason: "not_video",
      error: '"notes.txt" is not a video file name (expected .mp4, .webm, .mov, .m4v, .mkv).',
    });
    expect(rejection("Mechanics/.DS_Store").reason).toBe("not_video");
    expect(rejection("Mechanics/clip.mp4.part").reason).toBe("not_video");
    expect(rejection("Mechanics/.mp4").error).toContain("no name before its extension");
  });

  it("rejects macOS resource forks that carry a video extension", () => {
    expect(rejection("Mechanics/._A cup.-0.mp4").reason).toBe("not_video");
    expect(rejection("__MACOSX/Mechanics/A cup.-0.mp4").error).toContain("resource-fork");
  });
});

describe("sanitizeDisplayName", () => {
  it("replaces control and bidi-override characters and shortens long names", () => {
    expect(sanitizeDisplayName("evil\u202Egnp.mp4\u0007")).toBe("evil\uFFFDgnp.mp4\uFFFD");
    const shortened = sanitizeDisplayName("n".repeat(500));
    expect(shortened).toHaveLength(120);
    expect(shortened.endsWith("…")).toBe(true);
  });
});

describe("utf8ByteLength", () => {
  it("counts UTF-8 bytes like TextEncoder", () => {
    for (const text of ["", "abc", "café", "東京", "😀x", "\uD800 lone"]) {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});

describe("parseVideoPath: a large folder", () => {
  it("parses 5,000 VBench file names against the full index", () => {
    const captions = Object.values(readVbenchInfo()).map((record) => record.caption);
    const paths = Array.from({ length: 5_000 }, (_, position) => {
      const caption = captions[position % captions.length]!;
      return `model-x/${caption.slice(0, 180)}-${Math.floor(position / captions.length)}.mp4`;
    });
    const results = paths.map((relativePath) => parseVideoPath(relativePath, { promptIndex: vbenchIndex }));
    const matched = results.filter((result) => result.ok && result.value.matchedPromptList);
    expect(matched).toHaveLength(5_000);
  });
});
