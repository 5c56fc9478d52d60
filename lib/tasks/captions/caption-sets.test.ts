import { describe, expect, it } from "vitest";
import {
  type CaptionReference,
  type CaptionSetError,
  decodeCaptionFile,
  MAX_CAPTION_BYTES,
  MAX_LISTED_ERRORS,
  outputFileFormat,
  parseModelOutputs,
  parseReferenceSet,
  utf8Bytes,
} from "./caption-sets";

/** An error as one line of text, its line or row first. */
const formatCaptionSetError = (error: CaptionSetError) =>
  `${error.line === null ? "" : `line ${error.line}: `}${error.message}`;

const bytes = (text: string) => new TextEncoder().encode(text);
const jsonl = (...lines: unknown[]) =>
  bytes(lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n");

// Shaped like anycapeval_video_ref_content.jsonl / _ref_style.jsonl (width and height included).
const ref = (id: number | string, video: string, type: string, extra: Record<string, unknown> = {}) => ({
  id,
  video,
  conversations: [
    { from: "human", value: `Describe video ${video}. The generated caption's length cannot exceed two sentences.` },
    { from: "gpt", value: `Reference caption for ${id}.` },
  ],
  width: 0,
  height: 0,
  restriction: [type, "The generated caption's length cannot exceed two sentences."],
  ...extra,
});

const PROJECT_VIDEOS = ["model-a/00PTxOjRh_o_20_18to127.mp4", "pixabay_Beach_Sunrise_31368_009.mp4", "clip.mp4"];

function references(): CaptionReference[] {
  const result = parseReferenceSet(
    jsonl(
      ref(0, "00PTxOjRh_o_20_18to127.mp4", "action", {
        key_point: ["describe the girl's initial position (standing beside the bed)", "mention the bouquet"],
      }),
      ref(340, "00PTxOjRh_o_20_18to127.mp4", "brief"),
      ref(341, "pixabay_Beach_Sunrise_31368_009.mp4", "theme"),
      ref("x-1", "clip.mp4", "camera"),
    ),
    PROJECT_VIDEOS,
  );
  if (!result.ok) throw new Error(result.errors.map(formatCaptionSetError).join("\n"));
  return result.items;
}

describe("parseReferenceSet", () => {
  it("reads AnyCapEval's reference lines, matching videos by base name", () => {
    const items = references();
    expect(
      items.map((item) => [item.id, item.captionType, item.promptCaptionType, item.videoFileName, item.line]),
    ).toEqual([
      ["0", "action", "action", "model-a/00PTxOjRh_o_20_18to127.mp4", 1],
      ["340", "brief", "brief", "model-a/00PTxOjRh_o_20_18to127.mp4", 2],
      ["341", "theme", "style", "pixabay_Beach_Sunrise_31368_009.mp4", 3],
      ["x-1", "camera", "camera", "clip.mp4", 4],
    ]);
    expect(items[0]).toMatchObject({
      instruction:
        "Describe video 00PTxOjRh_o_20_18to127.mp4. The generated caption's length cannot exceed two sentences.",
      reference: "Reference caption for 0.",
      restriction: "The generated caption's length cannot exceed two sentences.",
      keyPoints: ["describe the girl's initial position (standing beside the bed)", "mention the bouquet"],
    });
    expect(items[1]!.keyPoints).toBeNull();
  });

  it("strips a byte order mark, blank lines, and a leading <video> placeholder", () => {
    const line = ref(1, "clip.mp4", "brief");
    line.conversations[0]!.value = "<video>\nDescribe it in one sentence.";
    const result = parseReferenceSet(new Uint8Array([0xef, 0xbb, 0xbf, ...jsonl(line, "", "   ")]), PROJECT_VIDEOS);
    expect(result).toMatchObject({ ok: true, items: [{ id: "1", instruction: "Describe it in one sentence." }] });
  });

  it("reports every bad line with its number and the field, and returns no items", () => {
    const result = parseReferenceSet(
      jsonl(
        ref(1, "clip.mp4", "brief"),
        "{not json",
        { ...ref(3, "clip.mp4", "brief"), video: undefined },
        { ...ref(4, "clip.mp4", "brief"), restriction: "brief" },
        { ...ref(5, "clip.mp4", "brief"), conversations: [{ from: "human", value: "x" }] },
        { ...ref(6, "clip.mp4", "brief"), key_point: ["ok", 7] },
        { ...ref(7, "clip.mp4", "brief"), id: 1.5 },
        [1, 2],
      ),
      PROJECT_VIDEOS,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const messages = result.errors.map(formatCaptionSetError);
    expect(messages[0]).toMatch(/^line 2: not valid JSON/);
    expect(messages.slice(1)).toEqual([
      "line 3: video: missing (the video's file name)",
      "line 4: restriction: must be [<caption type>, <rule text>]",
      'line 5: conversations: has no message from "gpt" (the reference caption)',
      "line 6: key_point.1: must be a string (a key point)",
      "line 7: id: must be a string or a whole number",
      "line 8: each line must be one JSON object",
    ]);
  });

  it("refuses duplicate ids", () => {
    const result = parseReferenceSet(
      jsonl(ref(1, "clip.mp4", "brief"), ref(2, "clip.mp4", "poem"), ref(1, "clip.mp4", "detail")),
      PROJECT_VIDEOS,
    );
    expect(result).toEqual({
      ok: false,
      errors: [{ line: 3, message: 'id "1" is used again (first on line 1)' }],
      unmatchedVideos: [],
    });
  });

  it("refuses references to videos the project does not have, and lists them once", () => {
    const result = parseReferenceSet(
      jsonl(
        ref(1, "missing.mp4", "brief"),
        ref(2, "Clip.mp4", "brief"),
        ref(3, "missing.mp4", "poem"),
        ref(4, "clip.mp4", "brief"),
      ),
      PROJECT_VIDEOS,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { line: 1, message: 'video "missing.mp4" is not among the project\'s videos' },
        { line: 2, message: 'video "Clip.mp4" is not among the project\'s videos' },
        { line: 3, message: 'video "missing.mp4" is not among the project\'s videos' },
      ],
      unmatchedVideos: ["missing.mp4", "Clip.mp4"],
    });
  });

  it("refuses a video name that fits several project videos", () => {
    const result = parseReferenceSet(jsonl(ref(1, "clip.mp4", "brief")), ["a/clip.mp4", "b/clip.mp4"]);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors[0]!.message).toBe(
        'video "clip.mp4" matches 2 of the project\'s videos ("a/clip.mp4", "b/clip.mp4"); file names must identify one video',
      );
  });

  it("refuses an oversized reference caption", () => {
    const line = ref(1, "clip.mp4", "detail");
    line.conversations[1]!.value = "word ".repeat(20_000);
    const result = parseReferenceSet(jsonl(line), PROJECT_VIDEOS);
    expect(result).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: "the reference caption is 97.7 KiB; a text may be at most 64.0 KiB" }],
    });
  });

  it("refuses an empty file and a file that is not UTF-8, naming the line", () => {
    expect(parseReferenceSet(bytes("\n\n"), PROJECT_VIDEOS)).toMatchObject({
      ok: false,
      errors: [{ line: null, message: "the file has no references" }],
    });
    const latin1 = new Uint8Array([
      ...jsonl(ref(1, "clip.mp4", "brief")),
      ...bytes('{"id": 2, "video": "caf'),
      0xe9,
      ...bytes('.mp4"}\n'),
    ]);
    expect(parseReferenceSet(latin1, PROJECT_VIDEOS)).toEqual({
      ok: false,
      errors: [{ line: 2, message: "the file is not UTF-8 text (save it as UTF-8 and import it again)" }],
      unmatchedVideos: [],
    });
  });

  it("lists at most MAX_LISTED_ERRORS errors and counts the rest", () => {
    const lines = Array.from({ length: MAX_LISTED_ERRORS + 5 }, () => "nope");
    const result = parseReferenceSet(bytes(lines.join("\n")), PROJECT_VIDEOS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(MAX_LISTED_ERRORS + 1);
    expect(result.errors.at(-1)).toEqual({ line: null, message: "and 5 more errors" });
  });
});

describe("parseModelOutputs", () => {
  const options = () => ({ model: "Qwen2.5-VL-7B", references: references() });

  it("reads {id, output} JSONL, numeric ids included", () => {
    const result = parseModelOutputs(
      jsonl({ id: 0, output: "A girl holds flowers." }, { id: "341", output: "Sunset.\nWaves." }),
      options(),
    );
    expect(result).toEqual({
      ok: true,
      items: [
        { referenceId: "0", model: "Qwen2.5-VL-7B", output: "A girl holds flowers.", line: 1 },
        { referenceId: "341", model: "Qwen2.5-VL-7B", output: "Sunset.\nWaves.", line: 2 },
      ],
    });
  });

  it("reads {video, type, output} rows, with theme also called style", () => {
    const result = parseModelOutputs(
      jsonl(
        { video: "00PTxOjRh_o_20_18to127.mp4", type: "brief", output: "b" },
        { video: "videos/pixabay_Beach_Sunrise_31368_009.mp4", type: "style", output: "s" },
      ),
      options(),
    );
    expect(result).toMatchObject({ ok: true, items: [{ referenceId: "340" }, { referenceId: "341" }] });
  });

  it("reads CSV, quoted multi-line outputs included, through the project's CSV parser", () => {
    const csv = 'id,output\r\n0,"A girl, with flowers"\r\n341,"line one\nline two"\r\n';
    expect(parseModelOutputs(bytes(csv), { ...options(), format: "csv" })).toMatchObject({
      ok: true,
      items: [
        { referenceId: "0", output: "A girl, with flowers", line: 2 },
        { referenceId: "341", output: "line one\nline two", line: 3 },
      ],
    });
    const byVideo = "Video,Type,Output,notes\nclip.mp4,camera,pans left,x\n";
    expect(parseModelOutputs(bytes(byVideo), options())).toMatchObject({
      ok: true,
      items: [{ referenceId: "x-1", output: "pans left" }],
    });
  });

  it("refuses a CSV without the columns it needs, and broken CSV with its line", () => {
    expect(parseModelOutputs(bytes("id,caption\n0,x\n"), options())).toEqual({
      ok: false,
      errors: [{ line: 1, message: 'the header has no "output" column (columns: id, output; or video, type, output)' }],
    });
    expect(parseModelOutputs(bytes("video,output\nclip.mp4,x\n"), options())).toMatchObject({
      ok: false,
      errors: [{ line: 1 }],
    });
    expect(parseModelOutputs(bytes('id,output\n0,"never closed\n'), options())).toEqual({
      ok: false,
      errors: [{ line: 2, message: 'a quoted field is never closed (missing ")' }],
    });
  });

  it("reports every bad output and returns none of the good ones", () => {
    const result = parseModelOutputs(
      jsonl(
        { id: 0, output: "fine" },
        { id: 999, output: "no such reference" },
        { id: 340, output: "   " },
        { id: 341, output: 42 },
        { id: 0, output: "again" },
        { video: "clip.mp4", output: "no type" },
        { video: "clip.mp4", type: "poem", output: "no such pair" },
        { id: "x-1" },
        "[]",
        "{oops",
      ),
      options(),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(formatCaptionSetError)).toEqual([
      'line 2: id "999" has no reference in the reference set',
      "line 3: output: is empty",
      "line 4: output: must be a string",
      'line 5: a second output for reference id "0" (the first is on line 1)',
      'line 6: needs an "id", or a "video" and a "type", to say which reference it answers',
      'line 7: no reference for video "clip.mp4" with type "poem"',
      "line 8: output: missing",
      "line 9: each line must be one JSON object",
      expect.stringMatching(/^line 10: not valid JSON/),
    ]);
  });

  it("refuses a {video, type} pair that fits several references, and an id whose video or type disagrees", () => {
    const refs = [...references(), { ...references()[1]!, id: "340b" }];
    expect(
      parseModelOutputs(jsonl({ video: "00PTxOjRh_o_20_18to127.mp4", type: "brief", output: "x" }), {
        model: "m",
        references: refs,
      }),
    ).toEqual({
      ok: false,
      errors: [
        {
          line: 1,
          message:
            'video "00PTxOjRh_o_20_18to127.mp4" with type "brief" fits 2 references (ids 340, 340b); give the id instead',
        },
      ],
    });
    expect(
      parseModelOutputs(
        jsonl({ id: 340, video: "clip.mp4", output: "x" }, { id: 340, type: "poem", output: "y" }),
        options(),
      ),
    ).toEqual({
      ok: false,
      errors: [
        { line: 1, message: 'id "340" is a reference for video "00PTxOjRh_o_20_18to127.mp4", not "clip.mp4"' },
        { line: 2, message: 'id "340" is a brief reference, not poem' },
      ],
    });
  });

  it("refuses a 10 MB caption with a clear message, and accepts one at the limit", () => {
    const huge = "a".repeat(10 * 1024 * 1024);
    expect(parseModelOutputs(jsonl({ id: 0, output: huge }), options())).toEqual({
      ok: false,
      errors: [{ line: 1, message: "output: is 10.0 MiB; a caption may be at most 64.0 KiB" }],
    });
    expect(parseModelOutputs(jsonl({ id: 0, output: "é".repeat(MAX_CAPTION_BYTES / 2) }), options()).ok).toBe(true);
    expect(parseModelOutputs(jsonl({ id: 0, output: `${"é".repeat(MAX_CAPTION_BYTES / 2)}x` }), options()).ok).toBe(
      false,
    );
  });

  it("refuses non-UTF-8 bytes, an empty file and a bad model name", () => {
    expect(parseModelOutputs(new Uint8Array([0x69, 0x64, 0x0a, 0xff, 0xfe]), options())).toEqual({
      ok: false,
      errors: [{ line: 2, message: "the file is not UTF-8 text (save it as UTF-8 and import it again)" }],
    });
    expect(parseModelOutputs(bytes(""), options())).toEqual({
      ok: false,
      errors: [{ line: null, message: "the file has no outputs" }],
    });
    expect(parseModelOutputs(jsonl({ id: 0, output: "x" }), { ...options(), model: "  " })).toEqual({
      ok: false,
      errors: [{ line: null, message: "the model name must not be empty" }],
    });
  });

  it("tells the format from the file name", () => {
    expect(outputFileFormat("out.JSONL")).toBe("jsonl");
    expect(outputFileFormat("out.json")).toBe("jsonl");
    expect(outputFileFormat("out.csv")).toBe("csv");
    expect(outputFileFormat("out.txt")).toBeNull();
  });
});

describe("decoding", () => {
  it("counts UTF-8 bytes as TextEncoder does", () => {
    for (const text of ["", "abc", "é", "猫", "🐶", "a🐶é猫\u{10ffff}", "\ud800 lone surrogate"]) {
      expect(utf8Bytes(text)).toBe(new TextEncoder().encode(text).length);
    }
  });

  it("drops the byte order mark", () => {
    expect(decodeCaptionFile(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ ok: true, text: "a" });
  });
});
