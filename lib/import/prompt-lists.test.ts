import { describe, expect, it } from "vitest";
import { buildPromptIndex, parsePromptList, type PromptEntry, type PromptIndex } from "./prompt-lists";
import { readVbenchFile, readVbenchInfo, vbenchDimensionFileNames } from "../../testkit/import/vbench-prompt-files";

function mergePromptIndexes(...indexes: readonly PromptIndex[]): PromptIndex {
  return buildPromptIndex(indexes.flatMap((index) => index.entries));
}

function entriesOf(fileName: string, content: string): PromptEntry[] {
  const parsed = parsePromptList(fileName, content);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.entries;
}

const WOODEN_TOY = "A wooden toy is placed gently on the surface of a small bowl of water.";

describe("parsePromptList: real VBench-2.0 files", () => {
  it("reads VBench2_full_text_info.json with every prompt and its dimensions", () => {
    const info = readVbenchInfo();
    const parsed = parsePromptList("VBench2_full_text_info.json", readVbenchFile("VBench2_full_text_info.json"));
    expect(parsed.ok && parsed.format).toBe("vbench-info-json");
    const entries = parsed.ok ? parsed.entries : [];
    expect(entries).toHaveLength(Object.keys(info).length);
    expect(entries.find((entry) => entry.prompt === WOODEN_TOY)?.dimensions).toEqual(["Diversity", "Mechanics"]);
  });

  it("reads a per-dimension list with CRLF line ends and trailing spaces, giving each prompt that dimension", () => {
    const raw = readVbenchFile("prompt/Human_Interaction.txt");
    expect(raw).toContain("\r\n"); // the real file is the awkward case
    const parsed = parsePromptList("Human_Interaction.txt", raw);
    expect(parsed.ok && parsed.format).toBe("dimension-txt");
    const entries = parsed.ok ? parsed.entries : [];
    expect(entries).toHaveLength(raw.split("\n").filter((line) => line.trim() !== "").length);
    for (const entry of entries) {
      expect(entry.dimensions).toEqual(["Human_Interaction"]);
      expect(entry.prompt).toBe(entry.prompt.trim());
    }
  });

  it("trims the trailing spaces of the real Diversity.txt so prompts equal the info captions", () => {
    const captions = new Set(Object.values(readVbenchInfo()).map((record) => record.caption));
    const entries = entriesOf("prompt/Diversity.txt", readVbenchFile("prompt/Diversity.txt"));
    expect(entries).toHaveLength(10);
    for (const entry of entries) expect(captions.has(entry.prompt)).toBe(true);
  });

  it("rebuilds the info file's prompt → dimensions map from the 18 per-dimension lists", () => {
    const fromDimensionFiles = buildPromptIndex(
      vbenchDimensionFileNames().flatMap((name) => entriesOf(name, readVbenchFile(`prompt/${name}`))),
    );
    const info = readVbenchInfo();
    expect(fromDimensionFiles.size).toBe(Object.keys(info).length);
    for (const record of Object.values(info)) {
      expect(fromDimensionFiles.lookup(record.caption)?.dimensions.slice().sort()).toEqual(
        [...record.dimension].sort(),
      );
    }
  });

  it("reads VBench2_full_text.txt as a plain list without dimensions", () => {
    const parsed = parsePromptList("VBench2_full_text.txt", readVbenchFile("VBench2_full_text.txt"));
    expect(parsed.ok && parsed.format).toBe("txt");
    expect(parsed.ok && parsed.entries.length).toBe(Object.keys(readVbenchInfo()).length);
    expect(parsed.ok && parsed.entries.every((entry) => entry.dimensions.length === 0)).toBe(true);
  });
});

describe("parsePromptList: other formats", () => {
  it("reads a CSV with a prompt column and several dimensions per cell", () => {
    const csv =
      'id,Prompt,Dimension\r\n1,"A cat, a dog and ""Rex"".",Mechanics; camera motion\r\n2,Plain prompt,Material|Thermotics|Lighting\r\n3,No dimension,\r\n';
    const parsed = parsePromptList("prompts.csv", csv);
    expect(parsed.ok && parsed.format).toBe("csv");
    expect(parsed.ok && parsed.entries).toEqual([
      { prompt: 'A cat, a dog and "Rex".', dimensions: ["Mechanics", "Camera_Motion"] },
      { prompt: "Plain prompt", dimensions: ["Material", "Thermotics", "Lighting"] },
      { prompt: "No dimension", dimensions: [] },
    ]);
  });

  it("rejects a CSV without a prompt column and a row with an empty prompt, naming the line", () => {
    expect(parsePromptList("p.csv", "text,dimension\nx,y\n")).toEqual({
      ok: false,
      error: 'line 1: the header has no "prompt" column (found: text, dimension)',
    });
    expect(parsePromptList("p.csv", "prompt,dimension\nx,Mechanics\n,Mechanics\n")).toEqual({
      ok: false,
      error: "line 3: the prompt is empty",
    });
  });

  it("reads JSON Lines with a string or list dimension and skips blank lines", () => {
    const jsonl =
      '{"prompt": "Un café à Paris ☕", "dimension": "Material"}\n\n{"prompt": "Two", "dimension": ["Mechanics", "Thermotics"]}\n{"prompt": "Three"}\n';
    expect(entriesOf("p.jsonl", jsonl)).toEqual([
      { prompt: "Un café à Paris ☕", dimensions: ["Material"] },
      { prompt: "Two", dimensions: ["Mechanics", "Thermotics"] },
      { prompt: "Three", dimensions: [] },
    ]);
  });

  it("names the line of invalid JSON Lines", () => {
    const bad = parsePromptList("p.jsonl", '{"prompt": "ok"}\n{"prompt": oops}\n');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^line 2: invalid JSON/);
    expect(parsePromptList("p.jsonl", '{"prompt": "ok"}\n\n{"text": "x"}')).toEqual({
      ok: false,
      error: 'line 3: no "prompt" field',
    });
    expect(parsePromptList("p.jsonl", '{"prompt": 5}')).toEqual({
      ok: false,
      error: 'line 1: "prompt" must be a string',
    });
  });

  it("reads a JSON array of prompt objects or plain strings", () => {
    const parsed = parsePromptList("p.json", JSON.stringify([{ prompt: "One", dimensions: ["Diversity"] }, "Two"]));
    expect(parsed.ok && parsed.format).toBe("json-array");
    expect(parsed.ok && parsed.entries).toEqual([
      { prompt: "One", dimensions: ["Diversity"] },
      { prompt: "Two", dimensions: [] },
    ]);
    expect(parsePromptList("p.json", JSON.stringify([{ prompt: "One" }, { dimension: "x" }]))).toEqual({
      ok: false,
      error: 'item 2: no "prompt" field',
    });
  });

  it("reads a .txt not named after a dimension without dimensions, skipping blank lines", () => {
    const parsed = parsePromptList("my prompts.txt", "first  \n\n   \nsecond\n");
    expect(parsed.ok && parsed.format).toBe("txt");
    expect(parsed.ok && parsed.entries).toEqual([
      { prompt: "first", dimensions: [] },
      { prompt: "second", dimensions: [] },
    ]);
  });

  it("rejects unknown extensions, invalid JSON and empty lists", () => {
    expect(parsePromptList("prompts.xlsx", "x")).toEqual({
      ok: false,
      error: expect.stringContaining("unsupported prompt list format (.xlsx)"),
    });
    expect(parsePromptList("p.json", "{not json")).toEqual({
      ok: false,
      error: expect.stringMatching(/^invalid JSON/),
    });
    // An empty list says which formats a prompt list may be.
    expect(parsePromptList("Mechanics.txt", "\n \n")).toEqual({
      ok: false,
      error: expect.stringMatching(/^no prompts found \(one prompt per line \(\.txt\), .*VBench2_full_info\.json/),
    });
  });
});

describe("buildPromptIndex", () => {
  it("restores every real prompt from its 180-character file-name key", () => {
    const info = readVbenchInfo();
    const index = buildPromptIndex(
      entriesOf("VBench2_full_text_info.json", readVbenchFile("VBench2_full_text_info.json")),
    );
    const longKeys = Object.keys(info).filter((key) => info[key]!.caption.length > 180);
    expect(longKeys.length).toBeGreaterThan(50);
    for (const [key, record] of Object.entries(info)) {
      expect(key).toBe(record.caption.slice(0, 180));
      expect(index.lookup(key)?.prompt).toBe(record.caption);
    }
  });

  it("merges the same prompt from several lists into one entry with every dimension, in VBench order", () => {
    const index = buildPromptIndex([
      { prompt: WOODEN_TOY, dimensions: ["Mechanics"] },
      { prompt: "Another.", dimensions: [] },
      { prompt: `${WOODEN_TOY}  `, dimensions: ["diversity", "Mechanics"] },
    ]);
    expect(index.size).toBe(2);
    expect(index.lookup(WOODEN_TOY)).toEqual({ prompt: WOODEN_TOY, dimensions: ["Diversity", "Mechanics"] });
    expect(index.promptsInDimension("Mechanics").map((entry) => entry.prompt)).toEqual([WOODEN_TOY]);
    expect(index.dimensions()).toEqual(["Diversity", "Mechanics"]);
  });

  it("matches NFD names (macOS) and a stem with trailing whitespace, preferring exact keys", () => {
    const index = buildPromptIndex([{ prompt: "Un café à Paris.", dimensions: [] }]);
    expect(index.lookup("Un café à Paris.".normalize("NFD"))?.prompt).toBe("Un café à Paris.");
    expect(index.lookup("Un café à Paris. ")?.prompt).toBe("Un café à Paris.");
    expect(index.lookup("Un café à Paris")).toBeNull();
  });

  it("returns no single match when two prompts share their first 180 characters", () => {
    const shared = "x".repeat(180);
    const index = buildPromptIndex([
      { prompt: `${shared} ending one`, dimensions: ["Mechanics"] },
      { prompt: `${shared} ending two`, dimensions: ["Material"] },
    ]);
    expect(index.candidates(shared)).toHaveLength(2);
    expect(index.lookup(shared)).toBeNull();
    expect(index.lookup(`${shared} ending two`)?.dimensions).toEqual(["Material"]);
  });

  it("also keys prompts by their code-point truncation, as Python slices", () => {
    const prompt = `${"😀".repeat(100)} and more text after the emoji`;
    const index = buildPromptIndex([{ prompt, dimensions: [] }]);
    expect(index.lookup(Array.from(prompt).slice(0, 180).join(""))?.prompt).toBe(prompt);
    expect(index.lookup(prompt.slice(0, 180))?.prompt).toBe(prompt);
  });

  it("serialises to its entries and rebuilds from them", () => {
    const index = buildPromptIndex([{ prompt: "One", dimensions: ["Mechanics"] }]);
    const rebuilt = buildPromptIndex(JSON.parse(JSON.stringify(index)) as PromptEntry[]);
    expect(rebuilt.lookup("One")).toEqual({ prompt: "One", dimensions: ["Mechanics"] });
  });
});

describe("mergePromptIndexes", () => {
  it("combines indexes, merging dimensions of shared prompts", () => {
    const merged = mergePromptIndexes(
      buildPromptIndex([{ prompt: "Shared", dimensions: ["Material"] }]),
      buildPromptIndex([
        { prompt: "Shared", dimensions: ["Camera_Motion"] },
        { prompt: "Only here", dimensions: [] },
      ]),
    );
    expect(merged.size).toBe(2);
    expect(merged.lookup("Shared")?.dimensions).toEqual(["Camera_Motion", "Material"]);
  });
});
