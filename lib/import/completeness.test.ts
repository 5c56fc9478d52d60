import { describe, expect, it } from "vitest";
import { completenessReport, type CompletenessVideo } from "../../testkit/import/completeness-report";
import { parseVideoPath } from "./parse-video-path";
import { buildPromptIndex, type PromptIndex } from "./prompt-lists";

function videosFrom(paths: string[], promptIndex: PromptIndex): CompletenessVideo[] {
  return paths.map((relativePath) => {
    const parsed = parseVideoPath(relativePath, { promptIndex });
    if (!parsed.ok) throw new Error(parsed.error);
    return { relativePath, ...parsed.value };
  });
}

const CUP = "A cup falls off a table.";
const BALL = "A ball, red, rolls down a hill.";
const TOY = "A wooden toy is placed gently on the surface of a small bowl of water.";

describe("completenessReport", () => {
  it("reports one missing sample, one extra file and one unmatched name in a dimension folder", () => {
    const promptIndex = buildPromptIndex([
      { prompt: CUP, dimensions: ["Mechanics"] },
      { prompt: BALL, dimensions: ["Mechanics"] },
    ]);
    const paths = [
      `m/Mechanics/${CUP}-0.mp4`,
      `m/Mechanics/${CUP}-1.mp4`,
      `m/Mechanics/${CUP}-2.mp4`,
      `m/Mechanics/${CUP}-3.mp4`, // extra: Mechanics has 3 samples per prompt
      `m/Mechanics/${BALL}-0.mp4`,
      `m/Mechanics/${BALL}-2.mp4`, // sample 1 is missing
      "m/Mechanics/Something else entirely.-0.mp4",
    ];
    const report = completenessReport({ promptIndex, videos: videosFrom(paths, promptIndex) });
    expect(report.dimensions).toEqual([
      {
        dimension: "Mechanics",
        prompts: 2,
        samplesPerPrompt: 3,
        expected: 6,
        present: 5,
        missing: [{ model: "m", prompt: BALL, dimension: "Mechanics", sampleIndex: 1 }],
        unexpected: [
          {
            relativePath: `m/Mechanics/${CUP}-3.mp4`,
            model: "m",
            prompt: CUP,
            sampleIndex: 3,
            reason: "index_out_of_range",
            duplicateOf: null,
          },
        ],
        unmatched: ["m/Mechanics/Something else entirely.-0.mp4"],
        byGenerator: [{ model: "m", expected: 6, present: 5, missing: 1, unexpected: 1 }],
      },
    ]);
    expect(report.unmatched).toEqual([
      { relativePath: "m/Mechanics/Something else entirely.-0.mp4", dimensions: ["Mechanics"] },
    ]);
    expect(report.totals).toEqual({
      generators: 1,
      videos: 7,
      expected: 6,
      present: 5,
      missing: 1,
      unexpected: 1,
      unmatched: 1,
    });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("flags duplicates (first path counts), missing indices and prompts outside the folder's dimension", () => {
    const promptIndex = buildPromptIndex([
      { prompt: CUP, dimensions: ["Mechanics"] },
      { prompt: BALL, dimensions: ["Material"] },
    ]);
    const videos: CompletenessVideo[] = [
      {
        relativePath: "b/Mechanics/cup-copy.mp4",
        prompt: CUP,
        dimensions: ["Mechanics"],
        sampleIndex: 0,
        matchedPromptList: true,
      },
      {
        relativePath: "a/Mechanics/cup.mp4",
        prompt: CUP,
        dimensions: ["Mechanics"],
        sampleIndex: 0,
        matchedPromptList: true,
      },
      {
        relativePath: "a/Mechanics/cup-no-index.mp4",
        prompt: CUP,
        dimensions: ["Mechanics"],
        sampleIndex: null,
        matchedPromptList: true,
      },
      {
        relativePath: "a/Mechanics/ball.mp4",
        prompt: BALL,
        dimensions: ["Mechanics"],
        sampleIndex: 0,
        matchedPromptList: true,
      },
    ];
    const mechanics = completenessReport({ promptIndex, videos }).dimensions.find(
      (dimension) => dimension.dimension === "Mechanics",
    );
    expect(mechanics?.present).toBe(1);
    expect(mechanics?.unexpected.map((video) => [video.relativePath, video.reason, video.duplicateOf])).toEqual([
      ["a/Mechanics/ball.mp4", "prompt_not_in_dimension", null],
      ["a/Mechanics/cup-no-index.mp4", "no_sample_index", null],
      ["b/Mechanics/cup-copy.mp4", "duplicate_sample", "a/Mechanics/cup.mp4"],
    ]);
    expect(mechanics?.missing.map((sample) => sample.sampleIndex)).toEqual([1, 2]);
  });

  it("counts a flat-layout prompt in all its dimensions without flagging Diversity's extra samples elsewhere", () => {
    const promptIndex = buildPromptIndex([{ prompt: TOY, dimensions: ["Diversity", "Mechanics"] }]);
    const paths = Array.from({ length: 20 }, (_, index) => `flat/${TOY}-${index}.mp4`);
    paths.push(`flat/${TOY}-20.mp4`);
    const report = completenessReport({ promptIndex, videos: videosFrom(paths, promptIndex) });
    const [diversity, mechanics] = report.dimensions;
    expect(diversity).toMatchObject({ dimension: "Diversity", expected: 20, present: 20, missing: [] });
    expect(diversity?.unexpected.map((video) => video.sampleIndex)).toEqual([20]);
    expect(mechanics).toMatchObject({ dimension: "Mechanics", expected: 3, present: 3, missing: [] });
    expect(mechanics?.unexpected.map((video) => video.sampleIndex)).toEqual([20]);
  });

  it("lists every sample of a dimension with no videos as missing, sorted by prompt then index", () => {
    const promptIndex = buildPromptIndex([
      { prompt: "b prompt", dimensions: ["Thermotics"] },
      { prompt: "a prompt", dimensions: ["Thermotics"] },
    ]);
    const [thermotics] = completenessReport({ promptIndex, videos: [] }).dimensions;
    expect(thermotics?.missing.map((sample) => `${sample.prompt}#${sample.sampleIndex}`)).toEqual([
      "a prompt#0",
      "a prompt#1",
      "a prompt#2",
      "b prompt#0",
      "b prompt#1",
      "b prompt#2",
    ]);
  });

  it("lists a generator's partly present prompts before its wholly missing ones, so a half-there prompt shows on the first page", () => {
    // Diversity: 20 samples a prompt. genA holds 5 of "c prompt" (0–4) and nothing of "a prompt" or "b prompt";
    // genB holds nothing. In prompt order alone genA's first 20 missing would all be "a prompt"'s.
    const promptIndex = buildPromptIndex(
      ["a prompt", "b prompt", "c prompt"].map((prompt) => ({ prompt, dimensions: ["Diversity"] })),
    );
    const videos = videosFrom(
      [0, 1, 2, 3, 4].map((i) => `genA/Diversity/c prompt-${i}.mp4`).concat(["genB/Diversity/b prompt-0.mp4"]),
      promptIndex,
    ).map((video) => (video.relativePath.startsWith("genB/") ? { ...video, sampleIndex: 25 } : video));
    const [diversity] = completenessReport({ promptIndex, videos }).dimensions;
    const listed = diversity!.missing.map((sample) => `${sample.model} ${sample.prompt}#${sample.sampleIndex}`);
    const samples = (model: string, prompt: string, from: number) =>
      Array.from({ length: 20 - from }, (_, i) => `${model} ${prompt}#${from + i}`);
    expect(listed).toEqual([
      ...samples("genA", "c prompt", 5),
      ...samples("genA", "a prompt", 0),
      ...samples("genA", "b prompt", 0),
      ...samples("genB", "a prompt", 0),
      ...samples("genB", "b prompt", 0),
      ...samples("genB", "c prompt", 0),
    ]);
    expect(listed.slice(0, 20)).toEqual([
      ...samples("genA", "c prompt", 5),
      ...samples("genA", "a prompt", 0).slice(0, 5),
    ]);
  });

  it("re-resolves prompts against the index: truncated names match, metadata prompts no list holds do not", () => {
    const long = `${"A long prompt ".repeat(15)}that ends here.`;
    const promptIndex = buildPromptIndex([{ prompt: long, dimensions: [] }]);
    const videos: CompletenessVideo[] = [
      { relativePath: "x-0.mp4", prompt: long.slice(0, 180), dimensions: [], sampleIndex: 0, matchedPromptList: false },
      {
        relativePath: "y-0.mp4",
        prompt: "Typed in metadata.",
        dimensions: [],
        sampleIndex: 0,
        matchedPromptList: true,
      },
    ];
    const report = completenessReport({ promptIndex, videos });
    expect(report.dimensions).toHaveLength(1);
    expect(report.dimensions[0]).toMatchObject({ dimension: null, expected: 3, present: 1, unmatched: ["y-0.mp4"] });
    expect(report.unmatched.map((video) => video.relativePath)).toEqual(["y-0.mp4"]);
  });

  it("orders dimensions alphabetically, with the no-dimension group last", () => {
    const promptIndex = buildPromptIndex([
      { prompt: "p1", dimensions: ["Thermotics"] },
      { prompt: "p2", dimensions: [] },
      { prompt: "p3", dimensions: ["Camera_Motion", "Lighting"] },
    ]);
    expect(completenessReport({ promptIndex, videos: [] }).dimensions.map((dimension) => dimension.dimension)).toEqual([
      "Camera_Motion",
      "Lighting",
      "Thermotics",
      null,
    ]);
  });

  it("expects each generator's samples: the same prompts under two generators are no duplicates, and a sample one lacks is missing under it only", () => {
    const promptIndex = buildPromptIndex([CUP, BALL].map((prompt) => ({ prompt, dimensions: ["Mechanics"] })));
    const paths = ["genA", "genB"].flatMap((model) =>
      [CUP, BALL].flatMap((prompt) => [0, 1, 2].map((i) => `${model}/Mechanics/${prompt}-${i}.mp4`)),
    );
    const complete = completenessReport({ promptIndex, videos: videosFrom(paths, promptIndex) });
    expect(complete.totals).toEqual({
      generators: 2,
      videos: 12,
      expected: 12,
      present: 12,
      missing: 0,
      unexpected: 0,
      unmatched: 0,
    });
    expect(complete.generators).toEqual([
      { model: "genA", expected: 6, present: 6, missing: 0, unexpected: 0 },
      { model: "genB", expected: 6, present: 6, missing: 0, unexpected: 0 },
    ]);
    const lacking = completenessReport({
      promptIndex,
      videos: videosFrom(
        paths.filter((p) => p !== `genB/Mechanics/${BALL}-1.mp4`),
        promptIndex,
      ),
    });
    expect(lacking.dimensions[0]!.missing).toEqual([
      { model: "genB", prompt: BALL, dimension: "Mechanics", sampleIndex: 1 },
    ]);
    expect(lacking.generators.map((g) => [g.model, g.missing])).toEqual([
      ["genA", 0],
      ["genB", 1],
    ]);
  });
});
