import { describe, expect, it } from "vitest";
import type { FrameTimes } from "../../frames/frame-times";
import { labelStudioSpanTasks, parseLabelStudioSpans, taskVideo } from "./label-studio-spans";
import { type ExportSpan, MAX_SPAN_FILE_ROWS } from "./span-file-types";
import { readSpanFile } from "./span-import";
import { framesOfRowSeconds, resolveRow, videoMatcher } from "./span-resolve";
import { parseSpanCsv, parseSpanJsonl, spansCsv, spansJsonl } from "./span-table";

/** 30 fps, 90 frames. */
const TIMES: FrameTimes = { timesS: Array.from({ length: 90 }, (_, i) => i / 30), endS: 3, variable: false };
const LABELS = [{ id: "hand", label: "Hand", definition: "" }];

const exportSpan = (over: Partial<ExportSpan>): ExportSpan => ({
  videoId: "v1",
  videoPath: "Mechanics/a.mp4",
  fileName: "a.mp4",
  task: "project",
  label: "hand",
  annotator: "ann",
  authorKind: "label_set",
  startFrame: 10,
  endFrame: 20,
  startS: 10 / 30,
  endS: 21 / 30,
  boxes: [],
  note: "",
  ...over,
});

describe("reading span tables", () => {
  it("refuses unknown CSV columns and JSONL fields by name (a typo never drops a value silently)", () => {
    expect(parseSpanCsv("video,label,startFrame,end_frame\na.mp4,hand,1,2\n").problems[0]!.message).toBe(
      'Unknown column "startFrame" (columns: video, video_id, task, label, annotator, author_kind, start_frame, end_frame, start, end, boxes, note).',
    );
    const jsonl = parseSpanJsonl('{"video":"a.mp4","label":"hand","startFrame":1,"end_frame":2}\n');
    expect(jsonl.problems[0]).toMatchObject({ row: 1, where: "line 1" });
    expect(jsonl.problems[0]!.message).toMatch(/startFrame/);
  });

  it("reads a __proto__ key in JSONL as an unknown field, not as the record's prototype", () => {
    const parsed = parseSpanJsonl('{"video":"a.mp4","label":"hand","start":0,"end":1,"__proto__":{"task":"x"}}\n');
    expect(parsed.rows).toEqual([]);
    expect(parsed.problems[0]!.message).toMatch(/__proto__/);
  });

  it("names each unreadable cell: a number, boxes that are not JSON, half a stretch", () => {
    const parsed = parseSpanCsv(
      [
        "video,label,start_frame,end_frame,start,end,boxes",
        "a.mp4,hand,one,2,,,",
        "a.mp4,hand,1,2,,,[{frame:1}]",
        "a.mp4,hand,1,,,,",
        "a.mp4,hand,,,,,",
        ",hand,1,2,,,",
      ].join("\n"),
    );
    expect(parsed.problems.map((p) => [p.row, p.message])).toEqual([
      [2, 'start_frame: "one" is not a number.'],
      [3, "boxes: not JSON (expected [{frame, x, y, w, h, enabled?}] in fractions of the frame)."],
      [4, "Give both start_frame and end_frame."],
      [5, "Give the span's frames (start_frame, end_frame) or its seconds (start, end)."],
      [6, "Name the row's video (video: a path, file name or video id; or video_id)."],
    ]);
  });

  it("writes formula-like text guarded and reads it back as written", () => {
    const csv = spansCsv([exportSpan({ note: "=SUM(A1)", annotator: "@ann" })]);
    expect(csv).toContain(",'@ann,");
    expect(csv).toContain(",'=SUM(A1)\r\n");
    const row = parseSpanCsv(csv).rows[0]!;
    expect([row.annotator, row.note]).toEqual(["@ann", "=SUM(A1)"]);
  });
});

describe("seconds to frames", () => {
  it("covers the frame shown at the start to the last frame starting before the end, boundaries within 1 ms", () => {
    expect(framesOfRowSeconds(TIMES, 1, 1.5)).toEqual({ startFrame: 30, endFrame: 44 });
    // Rounded to the millisecond: 1.033 is frame 31's start (1.0333…), 1.567 the end of frame 46 (1.5666…).
    expect(framesOfRowSeconds(TIMES, 1.033, 1.567)).toEqual({ startFrame: 31, endFrame: 46 });
    expect(framesOfRowSeconds(TIMES, 1.01, 1.02)).toEqual({ startFrame: 30, endFrame: 30 });
    expect(framesOfRowSeconds(TIMES, 2, 1)).toMatch(/ends \(1 s\) before it starts \(2 s\)/);
    expect(framesOfRowSeconds(TIMES, 2.5, 3.5)).toMatch(/outside the video \(0–3 s\)/);
  });

  it("reads a span with a start frame and no end (a Label Studio box never closed) to the video's last frame", () => {
    const row = { row: 1, where: "r", video: "a", label: "hand", annotator: "", boxes: [], note: "", startFrame: 80 };
    expect(resolveRow(row, "project", { times: TIMES, labels: LABELS })).toMatchObject({
      startFrame: 80,
      endFrame: 89,
    });
  });
});

describe("matching videos", () => {
  const match = videoMatcher([
    { id: "v1", fileName: "a.mp4", relativePath: "Sora/a.mp4" },
    { id: "v2", fileName: "a.mp4", relativePath: "Kling/a.mp4" },
    { id: "v3", fileName: "b.mp4", relativePath: "Kling/b.mp4" },
  ]);
  it("by id, path (or a longer path ending in it), a file name only one video has, or Label Studio's upload name", () => {
    expect(match("v2")).toMatchObject({ id: "v2" });
    expect(match("/data/x/Sora/a.mp4")).toMatchObject({ id: "v1" });
    expect(match("b.mp4")).toMatchObject({ id: "v3" });
    expect(match("data/upload/3/1a2b3c4d-b.mp4")).toMatchObject({ id: "v3" });
    expect(match("a.mp4")).toMatch(/2 videos of the project have the file name/);
    expect(match("toString")).toMatch(/not a video of this project/);
  });

  it("reads a Label Studio task's video from the exporter's id, the file route, or the URL's path", () => {
    expect(taskVideo({ framejury_video_id: "v9", video: "x" })).toEqual({ videoId: "v9", video: "x" });
    expect(taskVideo({ video: "https://fj.example/api/v1/videos/v3/file" })).toEqual({ videoId: "v3", video: "" });
    expect(taskVideo({ video: "https://ls.example/data/upload/3/1a2b3c4d-my%20clip.mp4?token=1" })).toEqual({
      video: "data/upload/3/1a2b3c4d-my clip.mp4",
    });
    expect(taskVideo({ video: "/data/local-files/?d=clips%2FSora%2Fa.mp4" })).toEqual({ video: "clips/Sora/a.mp4" });
    // The exporter's task: its id, and its path before the URL.
    expect(
      taskVideo({ framejury_video_id: "v9", video: "/data/local-files/?d=x/Sora/a.mp4", path: "Sora/a.mp4" }),
    ).toEqual({ videoId: "v9", video: "Sora/a.mp4" });
  });

  it("takes the file's video id when it is one of the project's, else its path, else its file name", () => {
    expect(match({ videoId: "v2", video: "Sora/a.mp4" })).toMatchObject({ id: "v2", matchedBy: "id" });
    expect(match({ videoId: "elsewhere", video: "Sora/a.mp4" })).toMatchObject({ id: "v1", matchedBy: "path" });
    expect(match({ videoId: "elsewhere", video: "x/b.mp4" })).toMatchObject({ id: "v3", matchedBy: "file name" });
    expect(match({ videoId: "elsewhere", video: "" })).toMatch(/"elsewhere" is not a video of this project/);
  });
});

describe("Label Studio", () => {
  const rectangle = (sequence: unknown[]) =>
    JSON.stringify([
      {
        data: { video: "a.mp4" },
        annotations: [
          { result: [{ type: "videorectangle", value: { labels: ["hand"], sequence, framesCount: 90, duration: 3 } }] },
        ],
      },
    ]);

  it("refuses a rotated box, and skips cancelled annotations and predictions", () => {
    const rotated = parseLabelStudioSpans(
      rectangle([{ frame: 1, x: 0, y: 0, width: 10, height: 10, rotation: 15, enabled: true }]),
    );
    expect(rotated.problems).toEqual([
      {
        row: 1,
        where: "task 1, annotation 1, result 1",
        message: "A rotated box cannot be imported (rotation must be 0).",
      },
    ]);
    const skipped = parseLabelStudioSpans(
      JSON.stringify([
        {
          data: { video: "a.mp4" },
          annotations: [
            {
              was_cancelled: true,
              result: [{ type: "timelinelabels", value: { ranges: [{ start: 1, end: 2 }], timelinelabels: ["hand"] } }],
            },
          ],
          predictions: [
            { result: [{ type: "timelinelabels", value: { ranges: [{ start: 1, end: 2 }], timelinelabels: ["x"] } }] },
          ],
        },
      ]),
    );
    expect(skipped).toEqual({ rows: [], problems: [] });
  });

  const timelines = (results: { labels: number; ranges: number }[]) =>
    JSON.stringify([
      {
        data: { video: "a.mp4" },
        annotations: [
          {
            result: results.map(({ labels, ranges }) => ({
              type: "timelinelabels",
              value: {
                ranges: Array.from({ length: ranges }, (_, i) => ({ start: i + 1, end: i + 1 })),
                timelinelabels: Array.from({ length: labels }, (_, i) => `l${i}`),
              },
            })),
          },
        ],
      },
    ]);
  const refusal = (file: string) => {
    try {
      parseLabelStudioSpans(file);
    } catch (error) {
      return error as { status: number; message: string; details: { limit: number; count: number } };
    }
    return null;
  };

  it("counts labels × ranges before building any span, refusing a file past the limit with the counted figure", () => {
    // 6,000 labels on 6,000 ranges: under 300 KB that would make 36,000,000 spans. The figure in the refusal is the
    // product itself, so no row was built to reach it.
    const huge = timelines([{ labels: 6000, ranges: 6000 }]);
    expect(huge.length).toBeLessThan(300_000);
    expect(refusal(huge)).toMatchObject({
      status: 413,
      message: expect.stringMatching(/at least 36,000,000 spans; a span file may hold at most 50,000/),
      details: { limit: MAX_SPAN_FILE_ROWS, count: 36_000_000 },
    });
    expect(() => readSpanFile({ file: Buffer.from(huge), fileName: "ls.json", format: "label_studio_spans" })).toThrow(
      /at least 36,000,000 spans/,
    );
    // 300 × 300: a modest 90,000, refused by the reader too.
    expect(refusal(timelines([{ labels: 300, ranges: 300 }]))).toMatchObject({ details: { count: 90_000 } });
    // The count runs over the file: the second of two results of 30,000 passes the limit.
    expect(
      refusal(
        timelines([
          { labels: 100, ranges: 300 },
          { labels: 300, ranges: 100 },
        ]),
      ),
    ).toMatchObject({
      details: { count: 60_000 },
    });
    // At the limit the file is read.
    expect(refusal(timelines([{ labels: 200, ranges: 250 }]))).toBeNull();
  });

  it("writes each annotator's spans as one annotation and a judge run's as a prediction", () => {
    const [task] = labelStudioSpanTasks(
      [{ videoId: "v1", url: "u", path: "p", frameCount: 90, durationS: 3, timesS: TIMES.timesS }],
      [
        exportSpan({ annotator: "ann", note: "here" }),
        exportSpan({ annotator: "gold", authorKind: "gold", startFrame: 3, endFrame: 3 }),
        exportSpan({ annotator: "run:r1", authorKind: "judge" }),
      ],
    );
    expect(task!.annotations.map((a) => [a.framejury_annotator, a.ground_truth, a.result.length])).toEqual([
      ["ann", false, 1],
      ["gold", true, 1],
    ]);
    expect(task!.annotations[0]!.result[0]).toMatchObject({
      type: "timelinelabels",
      value: { ranges: [{ start: 11, end: 21 }], timelinelabels: ["hand"] },
      meta: { text: ["here"] },
    });
    expect(task!.predictions.map((p) => [p.model_version, p.result.length])).toEqual([["run:r1", 1]]);
  });

  it("writes a span whose first box comes after its start with a one-frame box on its start, and closes it on its end", () => {
    const [task] = labelStudioSpanTasks(
      [{ videoId: "v1", url: "u", path: "p", frameCount: 90, durationS: 3, timesS: TIMES.timesS }],
      [exportSpan({ boxes: [{ frame: 12, x: 0.1, y: 0.2, w: 0.3, h: 0.4, enabled: true }] })],
    );
    const sequence = (task!.annotations[0]!.result[0]!.value as { sequence: { frame: number; enabled: boolean }[] })
      .sequence;
    expect(sequence.map((k) => [k.frame, k.enabled])).toEqual([
      [11, false],
      [13, true],
      [21, false],
    ]);
    const back = parseLabelStudioSpans(JSON.stringify([task])).rows[0]!;
    expect([back.startFrame, back.endFrame, back.annotator]).toEqual([10, 20, "ann"]);
  });
});

describe("span file formats by id", () => {
  const refusal = (format: string, text: string, fileName: string) => {
    try {
      readSpanFile({ file: Buffer.from(text), fileName, format: format as never });
      return null;
    } catch (error) {
      return error as { status: number; message: string };
    }
  };

  it("reads each file under the id its export writes it with", () => {
    const spans = [exportSpan({ annotator: "ann" }), exportSpan({ annotator: "bo", startFrame: 30, endFrame: 31 })];
    const tasks = labelStudioSpanTasks(
      [{ videoId: "v1", url: "u", path: "Mechanics/a.mp4", frameCount: 90, durationS: 3, timesS: TIMES.timesS }],
      spans,
    );
    const files = [
      ["csv", spansCsv(spans), "s.csv"],
      ["jsonl", spansJsonl(spans), "s.jsonl"],
      ["label-studio", JSON.stringify(tasks), "s.json"],
    ] as const;
    for (const [format, text, fileName] of files) {
      const read = readSpanFile({ file: Buffer.from(text), fileName, format: format as never });
      expect([format, read.problems]).toEqual([format, []]);
      expect(read.rows.map((r) => [r.annotator, r.startFrame, r.endFrame])).toEqual([
        ["ann", 10, 20],
        ["bo", 30, 31],
      ]);
    }
  });

  it("refuses a format id it has no reader for with a 400 naming the ids it reads, never reading with another", () => {
    const labelStudio = JSON.stringify([{ data: { video: "a.mp4" }, annotations: [] }]);
    for (const format of ["label-studio-config", "xml", "__proto__"])
      expect(refusal(format, labelStudio, "ls.json")).toMatchObject({
        status: 400,
        message: expect.stringMatching(/"csv", "jsonl", "label-studio"/),
      });
  });
});
