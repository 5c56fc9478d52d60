import { describe, expect, it } from "vitest";
import { parseQuestionSet, questionFileFormat } from "./question-sets";

const VIDEOS = ["Sora/Mechanics/A ball rolls-0.mp4", "Sora/Mechanics/A glass falls-0.mp4", "Pika/A glass falls-0.mp4"];
const bytes = (text: string) => new TextEncoder().encode(text);
const jsonl = (...records: unknown[]) =>
  bytes(records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");

const mc = (id: string | number, extra: Record<string, unknown> = {}) => ({
  id,
  video: "A ball rolls-0.mp4",
  question: "What does the ball do?",
  format: "mc",
  options: { A: "It rolls down the ramp.", B: "It bounces.", C: "It stays still." },
  answer: "A",
  category: "Step Sequencing",
  granularity: "coarse",
  ...extra,
});
const open = (id: string | number, extra: Record<string, unknown> = {}) => ({
  id,
  video: "A ball rolls-0.mp4",
  question: "Where does the ball stop?",
  format: "open",
  answer: "At the bottom of the ramp.",
  ...extra,
});

function errorsOf(result: ReturnType<typeof parseQuestionSet>) {
  if (result.ok) throw new Error("expected errors");
  return result.errors;
}

describe("parseQuestionSet", () => {
  it("reads JSONL questions, matched to the project's videos by file name", () => {
    const result = parseQuestionSet(
      jsonl(mc("q1"), open(2, { granularity: "Fine", extra: { source: "seed" } })),
      VIDEOS,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.questions).toEqual([
      {
        id: "q1",
        video: "A ball rolls-0.mp4",
        videoFileName: VIDEOS[0],
        question: "What does the ball do?",
        format: "mc",
        options: { A: "It rolls down the ramp.", B: "It bounces.", C: "It stays still." },
        answer: "A",
        category: "Step Sequencing",
        granularity: "coarse",
        extra: null,
        line: 1,
      },
      {
        id: "2",
        video: "A ball rolls-0.mp4",
        videoFileName: VIDEOS[0],
        question: "Where does the ball stop?",
        format: "open",
        options: null,
        answer: "At the bottom of the ramp.",
        category: null,
        granularity: "fine",
        extra: { source: "seed" },
        line: 2,
      },
    ]);
  });

  it("reads a JSON array, with each element's own line in errors", () => {
    const text = `[\n  ${JSON.stringify(mc("q1"))},\n  ${JSON.stringify(open("q2"))},\n  {"id": "q3", "video": "A ball rolls-0.mp4",\n   "question": "Why?", "format": "open"}\n]\n`;
    const good = parseQuestionSet(
      bytes(text.replace(', "format": "open"}', ', "format": "open", "answer": "Gravity."}')),
      VIDEOS,
      { format: "json" },
    );
    if (!good.ok) throw new Error(JSON.stringify(good.errors));
    expect(good.questions.map((q) => [q.id, q.line])).toEqual([
      ["q1", 2],
      ["q2", 3],
      ["q3", 4],
    ]);
    expect(errorsOf(parseQuestionSet(bytes(text), VIDEOS, { format: "json" }))).toEqual([
      { line: 4, message: "answer: missing (the correct letter, or the reference answer)" },
    ]);
    expect(errorsOf(parseQuestionSet(bytes(`[\n${JSON.stringify(mc("q1"))},\n{"id": "q2", oops}\n]`), VIDEOS))).toEqual(
      [{ line: 3, message: expect.stringContaining("not valid JSON") }],
    );
    expect(errorsOf(parseQuestionSet(bytes(`[\n${JSON.stringify(mc("q1"))},\n`), VIDEOS))).toEqual([
      { line: 1, message: expect.stringContaining("never closed") },
    ]);
  });

  it("reads CSV with letter columns or an options column, and keeps other columns in extra", () => {
    const csv = [
      "id,video,question,format,A,B,C,answer,category,granularity,source",
      'q1,A ball rolls-0.mp4,"What does the ball do, first?",mc,It rolls.,It bounces.,,B,Step Sequencing,fine,seed 004',
      "q2,A glass falls-0.mp4,What breaks?,open,,,,The glass.,,,",
    ].join("\r\n");
    const result = parseQuestionSet(bytes(csv), ["A ball rolls-0.mp4", "A glass falls-0.mp4"]);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.questions[0]).toMatchObject({
      id: "q1",
      question: "What does the ball do, first?",
      options: { A: "It rolls.", B: "It bounces." },
      answer: "B",
      granularity: "fine",
      extra: { source: "seed 004" },
      line: 2,
    });
    expect(result.questions[1]).toMatchObject({
      id: "q2",
      format: "open",
      options: null,
      answer: "The glass.",
      category: null,
      extra: null,
      line: 3,
    });
    const withJson = parseQuestionSet(
      bytes(
        'id,video,question,format,options,answer\nq1,A ball rolls-0.mp4,Which?,mc,"{""A"": ""x"", ""B"": ""y""}",a\n',
      ),
      VIDEOS,
    );
    if (!withJson.ok) throw new Error(JSON.stringify(withJson.errors));
    expect(withJson.questions[0]).toMatchObject({ options: { A: "x", B: "y" }, answer: "A" });
    expect(
      errorsOf(parseQuestionSet(bytes("id,video,question,options,answer\nq1,a.mp4,Which?,x,A\n"), VIDEOS)),
    ).toEqual([{ line: 1, message: expect.stringContaining('no "format" column') }]);
  });

  it("reports every bad record with its line and imports nothing", () => {
    const result = parseQuestionSet(
      jsonl(
        mc("q1"),
        { id: "q2", video: "A ball rolls-0.mp4", format: "mc", options: { A: "x", B: "y" }, answer: "A" },
        mc("q3", { answer: "D" }),
        mc("q4", { options: { A: "only one" } }),
        mc("q5", { options: Object.fromEntries("ABCDEFGHIJK".split("").map((l) => [l, `option ${l}`])) }),
        mc("q1"),
        mc("q7", { video: "A dog barks-0.mp4" }),
        mc("q8", { video: "A glass falls-0.mp4" }),
        "{not json",
        mc("q10", { options: { A: "x", C: "z" } }),
        open("q11", { options: { A: "x", B: "y" } }),
        mc("q12", { format: "yes/no" }),
        mc("q13", { granularity: "medium" }),
        open("q14", { answer: "  " }),
        mc("q15", { answer: "A. It rolls down the ramp." }),
      ),
      VIDEOS,
    );
    const errors = errorsOf(result);
    const at = (line: number) => errors.filter((e) => e.line === line).map((e) => e.message);
    expect(at(1)).toEqual([]);
    expect(at(2)).toEqual(["question: missing (the question)"]);
    expect(at(3)).toEqual(["answer: D is not among the options (A, B, C)"]);
    expect(at(4)).toEqual(["options: has 1; a multiple-choice question has 2 to 10 options"]);
    expect(at(5)).toEqual(["options: has 11; a multiple-choice question has 2 to 10 options"]);
    expect(at(6)).toEqual(['id "q1" is used again (first on line 1)']);
    expect(at(7)).toEqual(['video "A dog barks-0.mp4" is not among the project\'s videos']);
    expect(at(8)).toEqual([expect.stringContaining("matches 2 of the project's videos")]);
    expect(at(9)).toEqual([expect.stringContaining("not valid JSON")]);
    expect(at(10)).toEqual(['options: the letters are "A", "C"; they must be A, B (consecutive from A)']);
    expect(at(11)).toEqual(['options: an "open" question has no options (make it "mc", or leave options out)']);
    expect(at(12)).toEqual(['format: must be "mc" or "open", not "yes/no"']);
    expect(at(13)).toEqual(['granularity: must be "coarse" or "fine", not "medium"']);
    expect(at(14)).toEqual(["answer: must not be empty (the reference answer)"]);
    expect(at(15)).toEqual(['answer: must be the correct option\'s letter, not "A. It rolls down the ramp."']);
    if (result.ok) throw new Error("unreachable");
    expect(result.unmatchedVideos).toEqual(["A dog barks-0.mp4"]);
  });

  it("refuses an empty file, a file that is not UTF-8, and an mc question without options", () => {
    expect(errorsOf(parseQuestionSet(bytes("\n\n"), VIDEOS))).toEqual([
      { line: null, message: "the file has no questions" },
    ]);
    expect(errorsOf(parseQuestionSet(new Uint8Array([0x7b, 0x0a, 0xff, 0xfe]), VIDEOS))).toEqual([
      { line: 2, message: expect.stringContaining("not UTF-8") },
    ]);
    expect(errorsOf(parseQuestionSet(jsonl(mc("q1", { options: undefined })), VIDEOS))).toEqual([
      { line: 1, message: expect.stringContaining("options: missing") },
    ]);
  });

  it("takes the format from the file name, else from the content", () => {
    expect(questionFileFormat("set.jsonl")).toBe("jsonl");
    expect(questionFileFormat("set.JSON")).toBe("json");
    expect(questionFileFormat("set.csv")).toBe("csv");
    expect(questionFileFormat("set.txt")).toBeNull();
    const array = parseQuestionSet(bytes(JSON.stringify([mc("q1")])), VIDEOS);
    expect(array.ok).toBe(true);
  });
});
