/**
 * Issue 23.10: the run setting "count words as AnyCapEval does". AnyCapEval's scorer counts runs of ASCII
 * letters (`\b[a-zA-Z]+(?:['-][a-zA-Z]+)*\b`, Python's Unicode-aware \b) plus CJK characters, and sentences as
 * the non-blank pieces of re.split(r'[.!?]'); FrameJury counts numerals as words. A caption near the ±10% bound
 * can pass there and fail here; with the setting, a run reproduces AnyCapEval's verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { countSentencesAsAnyCapEval, countWords, countWordsAsAnyCapEval } from "./count-words";
import { applyLengthRules } from "./length-rules";
import { prisma } from "../../db/prisma";
import { importModelOutputs, importReferenceSet } from "./caption-set-import";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { jsonlBytes } from "../../../testkit/testing/item-files";
import { smallReferenceSet } from "../../../testkit/tasks/captions/caption-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../../judge/endpoints/endpoints";
import { createRunSchema } from "../../judge/runs/run-input.validation";
import { createRun } from "../../judge/runs/runs";

import { projectCaptionRuns } from "./caption-overview";
import { captionResultsQuerySchema } from "./caption-query";
import { CAPTION_RESULTS_CSV_HEADER, captionResultsCsvRows } from "./caption-results-export";
import type { CaptionRunResult } from "./caption-run-results";
import { runCaptionResults } from "./caption-run-results";
import { captionStyleSettingsSchema } from "./caption-style";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

/** The CSV export of `captions`, header and rows. */
function captionResultsCsv(runId: string, captions: readonly CaptionRunResult[]): string {
  return CAPTION_RESULTS_CSV_HEADER + captionResultsCsvRows(runId, captions);
}

describe("counting words as AnyCapEval does", () => {
  it.each([
    ["In 3 well-lit shots", 3, 4],
    ["A cat's tail, don't stop", 5, 5],
    ["café au lait", 2, 3], // Python's \b: "café" holds no run of ASCII letters between word boundaries
    ["A 3D render at 1,000 fps", 4, 6], // "3D" and "1,000" are no words there
    ["snake_case and CamelCase", 2, 3],
    ["一只猫在跳。", 6, 5], // 5 ideographs and the ideographic full stop (U+3002 is in AnyCapEval's range)
    ["ＡＢＣ", 3, 1], // full-width forms, one word each there
    ["", 0, 0],
  ])("%j: %i words there, %i in FrameJury's counting", (text, anycapeval, framejury) => {
    expect(countWordsAsAnyCapEval(text)).toBe(anycapeval);
    expect(countWords(text)).toBe(framejury);
  });

  it("counts sentences as the pieces between . ! and ?", () => {
    expect(countSentencesAsAnyCapEval("A cat jumps. It lands!")).toBe(2);
    expect(countSentencesAsAnyCapEval("It costs 3.5 dollars.")).toBe(2); // the decimal point splits there
    expect(countSentencesAsAnyCapEval("Wait... what?!")).toBe(2);
    expect(countSentencesAsAnyCapEval("  ")).toBe(0);
  });

  // 13 words in the reference; the output has 13 words of letters and 3 numerals.
  const reference = "A red ball rolls down a wooden ramp and stops at the bottom.";
  const output = "In 2 shots 3 red balls roll down 1 wooden ramp and stop at the bottom";

  it("a caption near the ±10% bound fails FrameJury's counting and passes AnyCapEval's", () => {
    const input = { captionType: "brief", output, reference, instruction: "", restriction: null, judgeScore: 3 };
    const ours = applyLengthRules(input);
    expect([ours.counting, ours.outputWords, ours.referenceWords, ours.cap]).toEqual(["framejury", 16, 13, 1]);
    const theirs = applyLengthRules({ ...input, counting: "anycapeval" });
    expect([theirs.counting, theirs.outputWords, theirs.referenceWords, theirs.cap, theirs.scoreAfterRules]).toEqual([
      "anycapeval",
      13,
      13,
      null,
      3,
    ]);
  });

  it("is a run setting, FrameJury's by default", () => {
    expect(captionStyleSettingsSchema.parse({}).wordCounting).toBe("framejury");
    expect(captionStyleSettingsSchema.parse({ wordCounting: "anycapeval" }).wordCounting).toBe("anycapeval");
    expect(() => captionStyleSettingsSchema.parse({ wordCounting: "python" })).toThrow();
  });

  let stub: StubServer;
  let owner: Actor;
  beforeAll(async () => {
    stub = await startStubLlm();
    owner = await makeUser();
  });
  afterAll(() => stub.close());

  it("two style runs of one caption, one counting each way: the run says how it counted, and the verdicts differ", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      uniformFrames: 8,
    });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });
    const file = (fileName: string, bytes: Uint8Array) => ({ fileName, bytes });
    const setId = (
      await importReferenceSet(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        file("ref.jsonl", jsonlBytes(smallReferenceSet()[0]!)),
      )
    ).set.id!;
    await importModelOutputs(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      setId,
      file("alpha.jsonl", jsonlBytes({ id: 1, output })),
      {
        model: "alpha",
      },
    );
    const queue = inlineJudgeQueue(testJudgeDeps());
    const start = async (settings: Record<string, unknown>) =>
      createRun(
        { prisma, queue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(builtInCatalogue()).parse({
          endpointId: endpoint.id,
          captionSetId: setId,
          pipeline: "caption_style",
          settings,
        }),
      );
    const ours = await start({});
    const theirs = await start({ wordCounting: "anycapeval" });

    const read = async (runId: string) =>
      (
        await runCaptionResults(
          prisma,
          await projectAccess(prisma, owner, projectId, "project.view"),
          runId,
          captionResultsQuerySchema.parse({}),
        )
      ).captions[0]!.style!;
    // The stub scores 2 (outside ±10% by FrameJury's count); FrameJury's rule caps it at 1, AnyCapEval's lets it stand.
    const a = await read(ours.id);
    expect([
      a.counts?.counting,
      a.counts?.outputWords,
      a.rules?.find((r) => r.id === "brief_detail_10pct")?.passed,
      a.rawScore,
      a.countedScore,
    ]).toEqual(["framejury", 16, false, 2, 1]);
    const b = await read(theirs.id);
    expect([
      b.counts?.counting,
      b.counts?.outputWords,
      b.rules?.find((r) => r.id === "brief_detail_10pct")?.passed,
      b.rawScore,
      b.countedScore,
    ]).toEqual(["anycapeval", 13, true, 2, 2]);

    const runs = await projectCaptionRuns(prisma, await projectAccess(prisma, owner, projectId, "project.view"));
    expect(Object.fromEntries(runs.map((r) => [r.id, r.wordCounting]))).toEqual({
      [ours.id]: "framejury",
      [theirs.id]: "anycapeval",
    });

    const csv = captionResultsCsv(
      theirs.id,
      (
        await runCaptionResults(
          prisma,
          await projectAccess(prisma, owner, projectId, "project.view"),
          theirs.id,
          captionResultsQuerySchema.parse({}),
        )
      ).captions,
    );
    const [header, row] = csv.trim().split(/\r?\n/);
    expect(header!.split(",").at(-1)).toBe("word_counting");
    expect(row!.split(",").at(-1)).toBe("anycapeval");
  });
});
