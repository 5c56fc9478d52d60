import { describe, expect, it } from "vitest";
import { SpanCursor, storeSpans } from "./span-store";
import type { SpanAgreementInput, SpanAgreementRow } from "./types";

const span = (id: string, authorId: string, videoId: string, label: string, startFrame: number): SpanAgreementRow => ({
  id,
  authorId,
  videoId,
  label,
  startFrame,
  endFrame: startFrame + 4,
  boxes: id === "a3" ? [{ frame: startFrame, x: 0, y: 0, w: 0.5, h: 0.5, enabled: true }] : [],
});

/*
 * Videos vb and va (frame counts known; ids ascending: va is video 0, vb video 1) and vz (no frame count). Labels L
 * and M, in that order (L is label 0). Ann's spans in input order: a1 vb/L, a2 va/M, a3 va/L, a4 vb/L, a5 vz/L, a6 va/X
 * (X is no reported label); Bob's: b1 vb/M.
 */
const input: SpanAgreementInput = {
  labels: [
    { id: "L", label: "L" },
    { id: "M", label: "M" },
  ],
  raters: [],
  coverage: new Map(),
  frameCounts: new Map([
    ["vb", 20],
    ["va", 30],
  ]),
  spans: [
    span("a1", "ann", "vb", "L", 10),
    span("b1", "bob", "vb", "M", 0),
    span("a2", "ann", "va", "M", 1),
    span("a3", "ann", "va", "L", 2),
    span("a4", "ann", "vb", "L", 3),
    span("a5", "ann", "vz", "L", 4),
    span("a6", "ann", "va", "X", 5),
  ],
};

describe("storeSpans", () => {
  it("keeps each author's spans of reported labels on videos with a frame count, by video id, then label, then input order", () => {
    const store = storeSpans(input);
    expect(store.videoIds).toEqual(["va", "vb"]);
    expect([...store.frames]).toEqual([30, 20]);
    const ids = Array.from(store.key, (_, j) => store.spanOf(j).id);
    const ann = store.authors.get("ann")!;
    const bob = store.authors.get("bob")!;
    // Ann: va/L a3 (key 0), va/M a2 (key 1), vb/L a1 then a4 (key 2, input order); Bob: vb/M b1 (key 3).
    expect(ids.slice(ann.from, ann.to)).toEqual(["a3", "a2", "a1", "a4"]);
    expect([...store.key.subarray(ann.from, ann.to)]).toEqual([0, 1, 2, 2]);
    expect(ids.slice(bob.from, bob.to)).toEqual(["b1"]);
    expect([...store.start.subarray(ann.from, ann.to)]).toEqual([2, 1, 10, 3]);
    expect([...store.end.subarray(ann.from, ann.to)]).toEqual([6, 5, 14, 7]);
    expect([...store.boxed.subarray(ann.from, ann.to)]).toEqual([1, 0, 0, 0]);
  });

  it("reads one author's spans key by key with a cursor, empty where the author marked nothing", () => {
    const store = storeSpans(input);
    const cursor = new SpanCursor(store, store.authors.get("ann"));
    const read = (key: number) => {
      cursor.read(key);
      return Array.from({ length: cursor.to - cursor.from }, (_, i) => store.spanOf(cursor.from + i).id);
    };
    expect([0, 1, 2, 3].map(read)).toEqual([["a3"], ["a2"], ["a1", "a4"], []]);
    const nobody = new SpanCursor(store, store.authors.get("carl"));
    nobody.read(2);
    expect(nobody.to - nobody.from).toBe(0);
  });
});
