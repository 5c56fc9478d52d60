import { describe, expect, it } from "vitest";
import type { SpanRecord } from "@/lib/spans/span-types";
import {
  initialTimelineState,
  type KeyContext,
  nextSave,
  shownOwnSpans,
  type TimelineAction,
  timelineReducer,
  type TimelineState,
} from "./span-edits";

/*
 * The timeline's keys and saves as a sequence of actions: in and out points at the playhead, `s` marks under the
 * chosen label, Shift+arrows nudge the nearer edge, Delete withdraws, `l` asks for a loop; saves go one at a time,
 * a change made while a save is on its way is saved after it, a 409 keeps the edit to retry on the current version,
 * any other failure puts the saved state back.
 */
const labels = [
  { id: "s1", label: "Extra limb", definition: "" },
  { id: "d2", label: "Object passes through", definition: "" },
];

function record(overrides: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id: "sp1",
    videoId: "v1",
    task: "hallucination",
    label: "s1",
    itemId: "",
    startFrame: 10,
    endFrame: 20,
    startS: 0.4,
    endS: 0.84,
    boxes: [],
    note: "",
    authorKind: "reviewer",
    authorId: "u1",
    runId: null,
    labelSetId: null,
    queueId: null,
    version: 1,
    updatedAt: "2026-11-27T00:00:00.000Z",
    ...overrides,
  };
}

function run(state: TimelineState, ...actions: TimelineAction[]): TimelineState {
  return actions.reduce(timelineReducer, state);
}

const at = (playhead: number, extra: Partial<KeyContext> = {}): KeyContext => ({
  playhead,
  frameCount: 100,
  labels,
  readOnly: false,
  ...extra,
});
const key = (name: string, playhead: number, extra: Partial<KeyContext> = {}): TimelineAction => ({
  type: "key",
  key: name,
  context: at(playhead, extra),
});

describe("keys", () => {
  it("sets in and out at the playhead and saves the in–out span under the chosen label (t cycles it)", () => {
    const state = run(initialTimelineState, key("]", 12), key("[", 30), key("t", 30), key("s", 40));
    const [span] = shownOwnSpans(state);
    expect(span!.draft).toEqual({ label: "d2", startFrame: 12, endFrame: 30, boxes: [], note: "" });
    expect(span!.id).toBeNull();
    expect(state.selected).toBe(span!.key);
    expect([state.inFrame, state.outFrame]).toEqual([null, null]);
    expect(nextSave(state)).toEqual({ kind: "create", key: span!.key, itemId: "", draft: span!.draft });
  });

  it("keeps the item a span was marked about, whatever item the screen moves to before it is saved", () => {
    const state = run(initialTimelineState, key("s", 4, { itemId: "material:q2" }), key("s", 9, { itemId: "" }));
    expect(state.own.map((s) => [s.draft.startFrame, s.itemId])).toEqual([
      [4, "material:q2"],
      [9, ""],
    ]);
    expect(nextSave(state)).toMatchObject({ kind: "create", itemId: "material:q2" });
  });

  it("marks the frame at the playhead with no in or out point; T goes back a label", () => {
    const state = run(initialTimelineState, key("T", 0), key("s", 7));
    expect(shownOwnSpans(state)[0]!.draft).toMatchObject({ label: "d2", startFrame: 7, endFrame: 7 });
  });

  it("moves the selected span's edge nearer the playhead by one frame with Shift+arrows", () => {
    const loaded = run(
      initialTimelineState,
      { type: "load", spans: [record()], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    const later = run(loaded, key("ShiftArrowRight", 19), key("ShiftArrowRight", 19));
    expect(shownOwnSpans(later)[0]!.draft).toMatchObject({ startFrame: 10, endFrame: 22 });
    const earlier = run(loaded, key("ShiftArrowLeft", 11));
    expect(shownOwnSpans(earlier)[0]!.draft).toMatchObject({ startFrame: 9, endFrame: 20 });
    expect(nextSave(earlier)).toMatchObject({ kind: "update", id: "sp1", expectedVersion: 1 });
  });

  it("withdraws the selected span with Delete at its version; a span never sent is just forgotten", () => {
    const loaded = run(
      initialTimelineState,
      { type: "load", spans: [record({ version: 4 })], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    const withdrawn = run(loaded, key("Delete", 0));
    expect(shownOwnSpans(withdrawn)).toEqual([]);
    expect(withdrawn.selected).toBeNull();
    expect(nextSave(withdrawn)).toEqual({ kind: "withdraw", key: "sp1", id: "sp1", expectedVersion: 4 });

    const unsent = run(initialTimelineState, key("s", 3), key("Delete", 3));
    expect(unsent.own).toEqual([]);
    expect(nextSave(unsent)).toBeNull();
  });

  it("asks for a loop over the selected span (numbered, so asking twice plays it twice), or the in–out stretch", () => {
    const loaded = run(
      initialTimelineState,
      { type: "load", spans: [record()], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    const once = run(loaded, key("l", 0));
    expect(once.loop).toEqual({ startFrame: 10, endFrame: 20, n: 1 });
    expect(run(once, key("l", 0)).loop!.n).toBe(2);
    expect(run(initialTimelineState, key("[", 3), key("]", 8), key("l", 0)).loop).toMatchObject({
      startFrame: 3,
      endFrame: 8,
    });
    const other = new Map([["o1", { startFrame: 50, endFrame: 60 }]]);
    expect(run(initialTimelineState, { type: "select", key: "o1" }, key("l", 0, { others: other })).loop).toMatchObject(
      {
        startFrame: 50,
        endFrame: 60,
      },
    );
    expect(run(once, key("Escape", 0)).loop).toBeNull();
  });

  it("read only: keys that mark or change spans change nothing and say why", () => {
    const state = run(initialTimelineState, key("[", 2, { readOnly: true }), key("s", 2, { readOnly: true }));
    expect(state.own).toEqual([]);
    expect(state.inFrame).toBeNull();
    expect(state.message?.text).toMatch(/not mark/);
  });
});

describe("saves", () => {
  it("keeps every key typed while a save is on its way: the second span waits, then goes", () => {
    let state = run(initialTimelineState, key("[", 1), key("]", 5), key("s", 5));
    const first = nextSave(state)!;
    state = run(state, { type: "sent", key: first.key });
    expect(nextSave(state)).toBeNull();
    // Typed during the save.
    state = run(state, key("t", 5), key("[", 40), key("]", 44), key("s", 44), key("ShiftArrowRight", 44));
    expect(nextSave(state)).toBeNull();
    state = run(state, {
      type: "saved",
      key: first.key,
      record: record({ id: "A", startFrame: 1, endFrame: 5 }),
      at: 1,
    });
    const second = nextSave(state)!;
    expect(second).toMatchObject({ kind: "create", draft: { label: "d2", startFrame: 40, endFrame: 45 } });
    expect(shownOwnSpans(state).map((s) => [s.id, s.draft.startFrame, s.draft.endFrame])).toEqual([
      ["A", 1, 5],
      [null, 40, 45],
    ]);
  });

  it("saves a change made during its own save once more, at the version that save returned", () => {
    let state = run(
      initialTimelineState,
      { type: "load", spans: [record()], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    state = run(state, key("ShiftArrowRight", 20));
    state = run(state, { type: "sent", key: "sp1" }, key("ShiftArrowRight", 20));
    state = run(state, { type: "saved", key: "sp1", record: record({ endFrame: 21, version: 2 }), at: 1 });
    expect(shownOwnSpans(state)[0]!.draft.endFrame).toBe(22);
    expect(nextSave(state)).toMatchObject({ kind: "update", expectedVersion: 2, draft: { endFrame: 22 } });
  });

  it("a 409 keeps the user's edit beside the current version; retry saves it over that version, discard takes theirs", () => {
    let state = run(
      initialTimelineState,
      { type: "load", spans: [record()], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    state = run(state, key("ShiftArrowRight", 20), { type: "sent", key: "sp1" });
    const current = record({ startFrame: 30, endFrame: 35, version: 3 });
    state = run(state, { type: "conflict", key: "sp1", current });
    const span = shownOwnSpans(state)[0]!;
    expect(span.status).toBe("conflict");
    expect(span.draft.endFrame).toBe(21);
    expect(span.conflict!.version).toBe(3);
    expect(state.message).toMatchObject({ tone: "error", text: expect.stringContaining("version 3") });
    expect(nextSave(state)).toBeNull();
    // Edits go on being kept while in conflict, and are not sent until the user chooses.
    state = run(state, key("ShiftArrowRight", 21));
    expect(nextSave(state)).toBeNull();
    const retried = run(state, { type: "retry", key: "sp1" });
    expect(nextSave(retried)).toEqual({
      kind: "update",
      key: "sp1",
      id: "sp1",
      expectedVersion: 3,
      draft: { label: "s1", startFrame: 10, endFrame: 22, boxes: [], note: "" },
    });
    const discarded = run(state, { type: "discard", key: "sp1" });
    expect(shownOwnSpans(discarded)[0]).toMatchObject({ status: "saved", draft: { startFrame: 30, endFrame: 35 } });
    expect(nextSave(discarded)).toBeNull();
  });

  it("the conflict's message goes once the user's edit is saved over the current version, or theirs is taken", () => {
    let state = run(
      initialTimelineState,
      { type: "load", spans: [record(), record({ id: "sp2", startFrame: 50, endFrame: 60 })], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    state = run(state, key("ShiftArrowRight", 20), { type: "sent", key: "sp1" });
    state = run(state, { type: "conflict", key: "sp1", current: record({ version: 3 }) });
    expect(state.message?.tone).toBe("error");
    // "Save mine over it": the message says so while the save is on its way, and goes when it is saved.
    let retried = run(state, { type: "retry", key: "sp1" });
    expect(retried.message).toMatchObject({ tone: "info", text: expect.stringContaining("version 3") });
    retried = run(retried, { type: "sent", key: "sp1" });
    retried = run(retried, { type: "saved", key: "sp1", record: record({ endFrame: 21, version: 4 }), at: 1 });
    expect(shownOwnSpans(retried)[0]).toMatchObject({ status: "saved", draft: { endFrame: 21 } });
    expect(retried.message).toBeNull();
    // Taking theirs settles the conflict too.
    expect(run(state, { type: "discard", key: "sp1" }).message).toBeNull();
    // Another span's save leaves a message about this one alone.
    const other = run(state, { type: "edit", key: "sp2", change: { endFrame: 61 } });
    const saying = { ...other, message: state.message };
    const afterOther = run(
      saying,
      { type: "sent", key: "sp2" },
      {
        type: "saved",
        key: "sp2",
        record: record({ id: "sp2", startFrame: 50, endFrame: 61, version: 2 }),
        at: 1,
      },
    );
    expect(afterOther.message).toEqual(state.message);
  });

  it("any other failure puts the last saved state back (a new span is removed)", () => {
    let state = run(
      initialTimelineState,
      { type: "load", spans: [record()], listedAt: 0 },
      { type: "select", key: "sp1" },
    );
    state = run(state, key("ShiftArrowLeft", 10), { type: "sent", key: "sp1" });
    state = run(state, { type: "failed", key: "sp1", message: "The network is down." });
    expect(shownOwnSpans(state)[0]).toMatchObject({ status: "saved", draft: { startFrame: 10, endFrame: 20 } });
    expect(state.message).toEqual({ tone: "error", text: "Not saved: The network is down." });

    let fresh = run(initialTimelineState, key("s", 4));
    fresh = run(fresh, { type: "sent", key: fresh.own[0]!.key });
    fresh = run(fresh, { type: "failed", key: fresh.own[0]!.key, message: "no" });
    expect(fresh.own).toEqual([]);
  });

  it("a reload keeps spans with unsaved changes and takes the server's for the rest", () => {
    let state = run(initialTimelineState, {
      type: "load",
      spans: [record(), record({ id: "sp2", startFrame: 50, endFrame: 51 })],
      listedAt: 0,
    });
    state = run(state, { type: "select", key: "sp1" }, key("ShiftArrowRight", 20));
    state = run(state, {
      type: "load",
      spans: [record({ endFrame: 99, version: 2 }), record({ id: "sp3", startFrame: 70, endFrame: 71 })],
      listedAt: 5,
    });
    expect(shownOwnSpans(state).map((s) => [s.key, s.draft.endFrame, s.status])).toEqual([
      ["sp1", 21, "dirty"],
      ["sp3", 71, "saved"],
    ]);
  });

  it("a list asked for before a span was saved here keeps that span; a list asked for after it drops it (withdrawn)", () => {
    let state = run(initialTimelineState, key("s", 4));
    const created = state.own[0]!.key;
    state = run(state, { type: "sent", key: created });
    state = run(state, {
      type: "saved",
      key: created,
      record: record({ id: "A", startFrame: 4, endFrame: 4 }),
      at: 100,
    });
    const stale = run(state, { type: "load", spans: [], listedAt: 90 });
    expect(shownOwnSpans(stale).map((s) => [s.key, s.id])).toEqual([[created, "A"]]);
    const fresh = run(state, {
      type: "load",
      spans: [record({ id: "A", startFrame: 4, endFrame: 6, version: 2 })],
      listedAt: 120,
    });
    expect(shownOwnSpans(fresh).map((s) => [s.key, s.draft.endFrame])).toEqual([[created, 6]]);
    expect(run(state, { type: "load", spans: [], listedAt: 120 }).own).toEqual([]);
  });
});
