import { describe, expect, it } from "vitest";
import { countFileNames, findMetadata, parseMetadataFile, type FileMetadata } from "./metadata-file";

function byPathOf(fileName: string, content: string): Map<string, FileMetadata> {
  const parsed = parseMetadataFile(fileName, content);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.byPath;
}

describe("parseMetadataFile: CSV", () => {
  it("reads known columns and puts the rest in extra, keeping extra names as written", () => {
    const csv = [
      "File_Name,Prompt,Model,Seed,Dimension,sample_index,CFG_Scale,notes",
      '"A cup, red.-0.mp4","A cup, red.",wan2.1,18446744073709551615,Mechanics;material,0,7.5,',
    ].join("\r\n");
    const byPath = byPathOf("meta.csv", csv);
    expect(byPath.get("A cup, red.-0.mp4")).toEqual({
      prompt: "A cup, red.",
      model: "wan2.1",
      seed: "18446744073709551615",
      dimension: ["Mechanics", "Material"],
      sampleIndex: 0,
      extra: { CFG_Scale: "7.5", notes: null },
    });
  });

  it("omits known fields left empty", () => {
    const byPath = byPathOf("meta.csv", "file,prompt,seed\nclip.mp4,,\n");
    expect(byPath.get("clip.mp4")).toEqual({ extra: {} });
  });

  it("keys rows by their path as written, never also by its bare file name", () => {
    const byPath = byPathOf(
      "meta.csv",
      "path,seed\nkling/Mechanics/a-0.mp4,1\nkling/Material/b-0.mp4,2\nveo/Material/b-0.mp4,3\n",
    );
    expect(byPath.get("kling/Mechanics/a-0.mp4")?.seed).toBe("1");
    expect(byPath.has("a-0.mp4")).toBe(false);
    expect(byPath.has("b-0.mp4")).toBe(false);
    expect(byPath.get("veo/Material/b-0.mp4")?.seed).toBe("3");
  });

  it("requires a file column and names the line of a row without a file name", () => {
    expect(parseMetadataFile("meta.csv", "prompt,seed\nx,1\n")).toEqual({
      ok: false,
      error: 'line 1: the header needs a "file", "file_name", "filename" or "path" column',
    });
    expect(parseMetadataFile("meta.csv", "file,seed\na.mp4,1\n,2\n")).toEqual({
      ok: false,
      error: 'line 3: no file name (give a "file", "file_name", "filename" or "path" value)',
    });
  });

  it("rejects a file listed twice and a bad sample index, naming the lines", () => {
    expect(parseMetadataFile("meta.csv", "file\na.mp4\nb.mp4\n./a.mp4\n")).toEqual({
      ok: false,
      error: 'line 4: "a.mp4" is already described at line 2',
    });
    expect(parseMetadataFile("meta.csv", "file,sample_index\na.mp4,-1\n")).toEqual({
      ok: false,
      error: 'line 2: "sample_index" must be a whole number ≥ 0',
    });
  });

  it("passes CSV parse errors through, naming the line", () => {
    expect(parseMetadataFile("meta.csv", 'file,prompt\na.mp4,"open\n')).toEqual({
      ok: false,
      error: expect.stringMatching(/^line 2: /),
    });
  });
});

describe("parseMetadataFile: JSON Lines and JSON", () => {
  it("reads typed JSON values, stringifying nested ones in extra", () => {
    const jsonl = [
      '{"filename": "a-0.mp4", "seed": 42, "dimension": ["Mechanics", "Diversity"], "sampleIndex": 0, "guidance": 6, "upscaled": true, "params": {"steps": 50}}',
      "",
      '{"file": "b-1.mp4", "prompt": "  B.  ", "note": null}',
    ].join("\n");
    const byPath = byPathOf("meta.jsonl", jsonl);
    expect(byPath.get("a-0.mp4")).toEqual({
      seed: 42,
      dimension: ["Mechanics", "Diversity"],
      sampleIndex: 0,
      extra: { guidance: 6, upscaled: true, params: '{"steps":50}' },
    });
    expect(byPath.get("b-1.mp4")).toEqual({ prompt: "B.", extra: { note: null } });
  });

  it("names the line of invalid JSON, a non-object line and a mistyped field", () => {
    const invalid = parseMetadataFile("meta.jsonl", '{"file": "a.mp4"}\n{"file": "b.mp4",}\n');
    expect(!invalid.ok && invalid.error).toMatch(/^line 2: invalid JSON/);
    expect(parseMetadataFile("meta.jsonl", '\n["a.mp4"]')).toEqual({
      ok: false,
      error: "line 2: expected a JSON object",
    });
    expect(parseMetadataFile("meta.jsonl", '{"file": "a.mp4", "prompt": 3}')).toEqual({
      ok: false,
      error: 'line 1: "prompt" must be text',
    });
  });

  it("reads a JSON array, numbering rows by item", () => {
    const parsed = parseMetadataFile("meta.json", JSON.stringify([{ path: "m/a.mp4", model: "m" }, { seed: 1 }]));
    expect(parsed).toEqual({ ok: false, error: expect.stringContaining("item 2: no file name") });
    expect(byPathOf("meta.json", JSON.stringify([{ path: "m/a.mp4", model: "m" }])).get("m/a.mp4")?.model).toBe("m");
  });

  it("rejects other extensions", () => {
    expect(parseMetadataFile("meta.xlsx", "")).toEqual({
      ok: false,
      error: "unsupported metadata format; use .csv, .jsonl or .json",
    });
  });
});

describe("findMetadata", () => {
  const byPath = byPathOf(
    "meta.csv",
    'path,seed\n"Camera_Motion/Garden, zoom in.-0.mp4",1\nsolo-0.mp4,2\ncafé-0.mp4,3\n',
  );
  const videos = [
    "my-export/Camera_Motion/Garden, zoom in.-0.mp4",
    "my-export\\deep\\solo-0.mp4",
    "café-0.mp4".normalize("NFD"),
    "other-0.mp4",
  ];
  const names = countFileNames(videos);

  it("finds a video whose browser path has the chosen folder in front", () => {
    expect(findMetadata(byPath, videos[0]!, names)?.seed).toBe("1");
    expect(findMetadata(byPath, videos[1]!, names)?.seed).toBe("2");
  });

  it("matches NFD paths and misses unknown files", () => {
    expect(findMetadata(byPath, videos[2]!, names)?.seed).toBe("3");
    expect(findMetadata(byPath, "other-0.mp4", names)).toBeNull();
  });

  it("a row with a full path names that path only, not the same file name of another generator", () => {
    // VBench layouts: every generator has the same file names.
    const rows = byPathOf("meta.csv", "path,model\nvids/modelA/Mechanics/x-0.mp4,A\n");
    const generators = ["vids/modelA/Mechanics/x-0.mp4", "vids/modelB/Mechanics/x-0.mp4"];
    expect(findMetadata(rows, generators[0]!, countFileNames(generators))?.model).toBe("A");
    expect(findMetadata(rows, generators[1]!, countFileNames(generators))).toBeNull();
    // Alone in the project, modelB's video is still not the row's path.
    expect(findMetadata(rows, generators[1]!, countFileNames([generators[1]!]))).toBeNull();
  });

  it("a row with a bare file name names a video only when exactly one video has that name", () => {
    const rows = byPathOf("meta.csv", "file,model\nx-0.mp4,X\n");
    const two = ["modelA/x-0.mp4", "modelB/x-0.mp4"];
    expect(two.map((path) => findMetadata(rows, path, countFileNames(two)))).toEqual([null, null]);
    expect(findMetadata(rows, "modelA/x-0.mp4", countFileNames(["modelA/x-0.mp4", "modelB/y-0.mp4"]))?.model).toBe("X");
  });
});
