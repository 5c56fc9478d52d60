import { describe, expect, it } from "vitest";
import { SPAN_BYTES, decodeSpanGroups, type SpanGroup } from "./span-groups";

/** A span's packed bytes as the loader's query writes them: video index, start, end (big-endian int4), boxes flag. */
function packed(spans: [video: number, start: number, end: number, boxed: boolean][]): string {
  const bytes = Buffer.alloc(spans.length * SPAN_BYTES);
  spans.forEach(([video, start, end, boxed], i) => {
    bytes.writeInt32BE(video, i * SPAN_BYTES);
    bytes.writeInt32BE(start, i * SPAN_BYTES + 4);
    bytes.writeInt32BE(end, i * SPAN_BYTES + 8);
    bytes[i * SPAN_BYTES + 12] = boxed ? 1 : 0;
  });
  return bytes.toString("base64");
}

describe("decodeSpanGroups", () => {
  /*
   * Videos va, vb, vc (indices 0, 1, 2). Ann marks label L on vc frames 300–70,000 (past 65,535: four bytes a number)
   * and on va frames 0–9 with boxes stored out of frame order; the judge marks label M on vb frames 5–14, no boxes.
   */
  const groups: SpanGroup[] = [
    {
      authorId: "ann",
      authorKind: "reviewer",
      label: "L",
      ids: "s1\ns2",
      frames: packed([
        [2, 300, 70_000, false],
        [0, 0, 9, true],
      ]),
      boxes: JSON.stringify([
        { frame: 5, x: 0.25, y: 0, w: 0.5, h: 0.5, enabled: true },
        { frame: 0, x: 0, y: 0, w: 0.5, h: 0.5, enabled: true },
      ]),
    },
    {
      authorId: "run:r1",
      authorKind: "judge",
      label: "M",
      ids: "s3",
      frames: packed([[1, 5, 14, false]]),
      boxes: null,
    },
  ];

  it("gives each span its id, video, author, label, frames and boxes sorted by frame", () => {
    const spans = decodeSpanGroups("va\nvb\nvc", groups);
    expect(spans).toEqual([
      {
        id: "s1",
        videoId: "vc",
        authorId: "ann",
        authorKind: "reviewer",
        label: "L",
        startFrame: 300,
        endFrame: 70_000,
        boxes: [],
      },
      {
        id: "s2",
        videoId: "va",
        authorId: "ann",
        authorKind: "reviewer",
        label: "L",
        startFrame: 0,
        endFrame: 9,
        boxes: [
          { frame: 0, x: 0, y: 0, w: 0.5, h: 0.5, enabled: true },
          { frame: 5, x: 0.25, y: 0, w: 0.5, h: 0.5, enabled: true },
        ],
      },
      {
        id: "s3",
        videoId: "vb",
        authorId: "run:r1",
        authorKind: "judge",
        label: "M",
        startFrame: 5,
        endFrame: 14,
        boxes: [],
      },
    ]);
  });

  it("refuses a group whose ids and packed frames disagree, and a video index past the video ids", () => {
    expect(() => decodeSpanGroups("va\nvb\nvc", [{ ...groups[1]!, ids: "s3\ns4" }])).toThrow(/2 ids but 13 bytes/);
    expect(() => decodeSpanGroups("va", [groups[1]!])).toThrow(/video index out of range/);
    expect(decodeSpanGroups("", [])).toEqual([]);
  });
});
