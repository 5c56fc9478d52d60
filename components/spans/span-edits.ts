/**
 * The timeline's state: the in and out points, the chosen label, the selected span and the caller's own spans with
 * their unsaved changes. Every key and drag is an action applied here in order, so a key typed while a save is on
 * its way acts on the state the key before it left (nothing is dropped, nothing reads a stale render). Saves are
 * optimistic: a span changes on screen at once and goes to the server one request at a time (`nextSave`); a failure
 * puts the last saved state back, and a 409 keeps the user's edit beside the current version to retry or discard.
 * Pure: the component tests and the save worker drive it.
 */
import type { SpanLabel } from "@/lib/spans/span-labels";
import type { BoxKeyframe, SpanRecord } from "@/lib/spans/span-types";
import { inOutFrames, nearerEdge, type SpanEdge, withEdgeAt } from "./timeline-math";

/** What the caller can change of their span. */
export interface SpanDraft {
  label: string;
  startFrame: number;
  endFrame: number;
  boxes: BoxKeyframe[];
  note: string;
}

export type SaveStatus = "saved" | "dirty" | "saving" | "conflict";

/** One of the caller's own spans as the screen holds it. */
export interface OwnSpan {
  /** Stable on screen: the server id, or `new:<n>` until the server gives one. */
  key: string;
  id: string | null;
  /** The judged item it is about ('' for the video itself): fixed when it is marked. */
  itemId: string;
  draft: SpanDraft;
  /** The last state the server confirmed (null: not saved yet); a failed save goes back to it. */
  base: SpanRecord | null;
  status: SaveStatus;
  /** Changed again while its save was on the way: saved once more after it. */
  again: boolean;
  /** Withdrawal asked: hidden at once, withdrawn on the server next. */
  withdrawing: boolean;
  /** The span as it is on the server after a 409 (someone else changed it). */
  conflict: SpanRecord | null;
  /** When the server last confirmed a save of it here (ms): a list asked for before that may not hold it yet. */
  savedAt: number;
}

export interface TimelineMessage {
  text: string;
  tone: "info" | "error";
  /** The own span a conflict's message is about: it goes once that span is saved or the other version taken. */
  about?: string;
}

export interface TimelineState {
  inFrame: number | null;
  outFrame: number | null;
  labelIndex: number;
  /** The selected span's key (own spans: OwnSpan.key; others': their id). */
  selected: string | null;
  own: OwnSpan[];
  /** Keys of own spans waiting to be saved, in the order they were changed. */
  queue: string[];
  nextLocal: number;
  message: TimelineMessage | null;
  /** Asked of the player by a key (`l`: loop the selected span), numbered so the same ask twice runs twice. */
  loop: { startFrame: number; endFrame: number; n: number } | null;
}

export const initialTimelineState: TimelineState = {
  inFrame: null,
  outFrame: null,
  labelIndex: 0,
  selected: null,
  own: [],
  queue: [],
  nextLocal: 1,
  message: null,
  loop: null,
};

/** What the reducer needs to know about the moment a key came: the playhead, the video's length, the labels. */
export interface KeyContext {
  playhead: number;
  frameCount: number;
  labels: readonly SpanLabel[];
  /** Read-only: keys that change spans only say so. */
  readOnly: boolean;
  /** The item a span marked now is about ('' for the video itself). */
  itemId?: string;
  /** Others' spans by key (a selected one of them can be looped with `l`). */
  others?: ReadonlyMap<string, { startFrame: number; endFrame: number }>;
}

export type TimelineAction =
  | { type: "key"; key: string; context: KeyContext }
  /** The server's list of the caller's spans, asked for at `listedAt` (ms). */
  | { type: "load"; spans: readonly SpanRecord[]; listedAt: number }
  | { type: "select"; key: string | null }
  | { type: "label"; index: number }
  | { type: "create"; draft: SpanDraft; itemId: string }
  | { type: "edit"; key: string; change: Partial<SpanDraft> }
  | { type: "withdraw"; key: string }
  | { type: "sent"; key: string }
  | { type: "saved"; key: string; record: SpanRecord; at: number }
  | { type: "withdrawn"; key: string }
  | { type: "conflict"; key: string; current: SpanRecord }
  | { type: "failed"; key: string; message: string }
  | { type: "retry"; key: string }
  | { type: "discard"; key: string }
  | { type: "message"; message: TimelineMessage | null }
  /** Another task's spans: nothing of the last task's carries over. */
  | { type: "reset" };

export function draftOf(record: SpanRecord): SpanDraft {
  return {
    label: record.label,
    startFrame: record.startFrame,
    endFrame: record.endFrame,
    boxes: record.boxes,
    note: record.note,
  };
}

function savedSpan(record: SpanRecord, savedAt = 0): OwnSpan {
  return {
    savedAt,
    key: record.id,
    id: record.id,
    itemId: record.itemId,
    draft: draftOf(record),
    base: record,
    status: "saved",
    again: false,
    withdrawing: false,
    conflict: null,
  };
}

function enqueue(queue: string[], key: string): string[] {
  return queue.includes(key) ? queue : [...queue, key];
}

function replaceOwn(state: TimelineState, key: string, next: OwnSpan | null): OwnSpan[] {
  return next ? state.own.map((s) => (s.key === key ? next : s)) : state.own.filter((s) => s.key !== key);
}

/** A change to an own span: shown at once, saved next (or after the save on its way). */
function edited(state: TimelineState, key: string, change: Partial<SpanDraft>, withdrawing = false): TimelineState {
  const span = state.own.find((s) => s.key === key);
  if (!span) return state;
  const next: OwnSpan = { ...span, draft: { ...span.draft, ...change }, withdrawing: span.withdrawing || withdrawing };
  // Never sent: withdrawing it is forgetting it.
  if (next.withdrawing && next.id === null && span.status === "dirty")
    return {
      ...state,
      own: replaceOwn(state, key, null),
      queue: state.queue.filter((k) => k !== key),
      selected: state.selected === key ? null : state.selected,
    };
  if (span.status === "saving") next.again = true;
  else if (span.status === "saved") next.status = "dirty";
  const queue = span.status === "conflict" ? state.queue : enqueue(state.queue, key);
  return {
    ...state,
    own: replaceOwn(state, key, next),
    queue,
    selected: next.withdrawing && state.selected === key ? null : state.selected,
  };
}

function created(state: TimelineState, draft: SpanDraft, itemId: string): TimelineState {
  const key = `new:${state.nextLocal}`;
  const span: OwnSpan = {
    key,
    id: null,
    itemId,
    draft,
    base: null,
    status: "dirty",
    again: false,
    withdrawing: false,
    conflict: null,
    savedAt: 0,
  };
  return {
    ...state,
    own: [...state.own, span],
    queue: [...state.queue, key],
    nextLocal: state.nextLocal + 1,
    selected: key,
    inFrame: null,
    outFrame: null,
  };
}

/**
 * The server's list of the caller's spans: a span with a change of the user's on screen keeps it, and so does one
 * saved here after the list was asked for (the list cannot know it yet); a saved span missing from a newer list was
 * withdrawn elsewhere.
 */
function loaded(state: TimelineState, spans: readonly SpanRecord[], listedAt: number): TimelineState {
  const byId = new Map(spans.map((s) => [s.id, s]));
  const kept = state.own.filter(
    (s) => s.id === null || s.status !== "saved" || byId.has(s.id) || s.savedAt >= listedAt,
  );
  const own = kept.map((s) => {
    const fresh = s.id ? byId.get(s.id) : undefined;
    return fresh && s.status === "saved" && fresh.version >= (s.base?.version ?? 0)
      ? { ...savedSpan(fresh, s.savedAt), key: s.key }
      : s;
  });
  const known = new Set(own.map((s) => s.id));
  for (const span of spans) if (!known.has(span.id)) own.push(savedSpan(span));
  return { ...state, own };
}

function say(state: TimelineState, text: string, tone: TimelineMessage["tone"] = "info"): TimelineState {
  return { ...state, message: { text, tone } };
}

const EDIT_KEYS = new Set(["[", "]", "s", "Delete", "Backspace", "ShiftArrowLeft", "ShiftArrowRight"]);

/** A key's action on the state (keys that only move the player or the view are handled by the component). */
function keyed(state: TimelineState, key: string, context: KeyContext): TimelineState {
  const { playhead, frameCount, labels } = context;
  const selectedOwn = state.own.find((s) => s.key === state.selected && !s.withdrawing) ?? null;
  if (context.readOnly && EDIT_KEYS.has(key)) return say(state, "You can look at spans here but not mark them.");
  switch (key) {
    case "[":
      return say({ ...state, inFrame: playhead }, `In point at frame ${playhead}.`);
    case "]":
      return say({ ...state, outFrame: playhead }, `Out point at frame ${playhead}.`);
    case "t":
    case "T": {
      if (labels.length === 0) return say(state, "This task has no span labels.", "error");
      const labelIndex = (state.labelIndex + (key === "t" ? 1 : labels.length - 1)) % labels.length;
      return say({ ...state, labelIndex }, `Label: ${labels[labelIndex]!.label}.`);
    }
    case "s": {
      const frames = inOutFrames(state.inFrame, state.outFrame) ?? { startFrame: playhead, endFrame: playhead };
      const label = labels[state.labelIndex];
      if (!label) return say(state, "This task has no span labels to mark.", "error");
      const draft = { label: label.id, ...frames, boxes: [], note: "" };
      return say(
        created(state, draft, context.itemId ?? ""),
        `Marked ${label.label}, frames ${frames.startFrame}–${frames.endFrame}.`,
      );
    }
    case "Delete":
    case "Backspace":
      if (!selectedOwn) return say(state, "Select one of your spans to withdraw it.");
      return say(edited(state, selectedOwn.key, {}, true), "Span withdrawn.");
    case "ShiftArrowLeft":
    case "ShiftArrowRight": {
      if (!selectedOwn) return say(state, "Select one of your spans to move its edge.");
      const edge: SpanEdge = nearerEdge(selectedOwn.draft, playhead);
      const at = edge === "start" ? selectedOwn.draft.startFrame : selectedOwn.draft.endFrame;
      const moved = withEdgeAt(selectedOwn.draft, edge, at + (key === "ShiftArrowLeft" ? -1 : 1), frameCount);
      return edited(state, selectedOwn.key, { startFrame: moved.startFrame, endFrame: moved.endFrame });
    }
    case "l": {
      const other = state.selected ? context.others?.get(state.selected) : undefined;
      const frames = selectedOwn?.draft ?? other ?? inOutFrames(state.inFrame, state.outFrame);
      if (!frames) return say(state, "Select a span (or set in and out points) to play it in a loop.");
      const n = (state.loop?.n ?? 0) + 1;
      return { ...state, loop: { startFrame: frames.startFrame, endFrame: frames.endFrame, n } };
    }
    case "Escape":
      return { ...state, selected: null, inFrame: null, outFrame: null, loop: null };
    default:
      return state;
  }
}

function afterSave(state: TimelineState, key: string, record: SpanRecord, at: number): TimelineState {
  const span = state.own.find((s) => s.key === key);
  if (!span) return state;
  const base = record;
  const next: OwnSpan = span.again
    ? { ...span, id: record.id, base, status: "dirty", again: false, savedAt: at }
    : { ...savedSpan(record, at), key: span.key, withdrawing: span.withdrawing };
  const queue = next.status === "dirty" ? enqueue(state.queue, key) : state.queue;
  const settled = next.status === "saved" && state.message?.about === key;
  return { ...state, own: replaceOwn(state, key, next), queue, message: settled ? null : state.message };
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case "key":
      return keyed(state, action.key, action.context);
    case "load":
      return loaded(state, action.spans, action.listedAt);
    case "select":
      return { ...state, selected: action.key };
    case "label":
      return { ...state, labelIndex: action.index };
    case "create":
      return say(
        created(state, action.draft, action.itemId),
        `Marked ${action.draft.label}, frames ${action.draft.startFrame}–${action.draft.endFrame}.`,
      );
    case "edit":
      // The last message was about something before this change.
      return { ...edited(state, action.key, action.change), message: null };
    case "withdraw":
      return edited(state, action.key, {}, true);
    case "sent":
      return {
        ...state,
        queue: state.queue.filter((k) => k !== action.key),
        own: state.own.map((s) => (s.key === action.key ? { ...s, status: "saving", again: false } : s)),
      };
    case "saved":
      return afterSave(state, action.key, action.record, action.at);
    case "withdrawn":
      return { ...state, own: replaceOwn(state, action.key, null) };
    case "conflict": {
      const span = state.own.find((s) => s.key === action.key);
      if (!span) return state;
      const next: OwnSpan = { ...span, status: "conflict", conflict: action.current, again: false };
      return {
        ...state,
        own: replaceOwn(state, action.key, next),
        queue: state.queue.filter((k) => k !== action.key),
        message: {
          text: `This span was changed elsewhere (now version ${action.current.version}). Your edit is kept: save it over that version, or take theirs.`,
          tone: "error",
          about: action.key,
        },
      };
    }
    case "failed": {
      const span = state.own.find((s) => s.key === action.key);
      if (!span) return state;
      const back = span.base ? { ...savedSpan(span.base), key: span.key } : null;
      return say(
        { ...state, own: replaceOwn(state, action.key, back), queue: state.queue.filter((k) => k !== action.key) },
        `Not saved: ${action.message}`,
        "error",
      );
    }
    case "retry": {
      const span = state.own.find((s) => s.key === action.key);
      if (!span?.conflict) return state;
      const next: OwnSpan = { ...span, base: span.conflict, conflict: null, status: "dirty" };
      return {
        ...state,
        own: replaceOwn(state, action.key, next),
        queue: enqueue(state.queue, action.key),
        message: {
          text: `Saving your edit over version ${span.conflict.version}…`,
          tone: "info",
          about: action.key,
        },
      };
    }
    case "discard": {
      const span = state.own.find((s) => s.key === action.key);
      if (!span?.conflict) return state;
      return {
        ...state,
        own: replaceOwn(state, action.key, { ...savedSpan(span.conflict), key: span.key }),
        message: state.message?.about === action.key ? null : state.message,
      };
    }
    case "message":
      return { ...state, message: action.message };
    case "reset":
      return initialTimelineState;
  }
}

/** The request the save worker sends next (one at a time, oldest change first); null when nothing waits. */
export type SaveRequest =
  | { kind: "create"; key: string; itemId: string; draft: SpanDraft }
  | { kind: "update"; key: string; id: string; draft: SpanDraft; expectedVersion: number }
  | { kind: "withdraw"; key: string; id: string; expectedVersion: number };

export function nextSave(state: TimelineState): SaveRequest | null {
  if (state.own.some((s) => s.status === "saving")) return null;
  for (const key of state.queue) {
    const span = state.own.find((s) => s.key === key);
    if (!span || span.status !== "dirty") continue;
    if (span.id === null) return { kind: "create", key, itemId: span.itemId, draft: span.draft };
    const expectedVersion = span.base?.version ?? 1;
    if (span.withdrawing) return { kind: "withdraw", key, id: span.id, expectedVersion };
    return { kind: "update", key, id: span.id, draft: span.draft, expectedVersion };
  }
  return null;
}

/** Own spans as the timeline draws them (withdrawn ones gone at once), in time order. */
export function shownOwnSpans(state: TimelineState): OwnSpan[] {
  return state.own
    .filter((s) => !s.withdrawing)
    .sort((a, b) => a.draft.startFrame - b.draft.startFrame || a.draft.endFrame - b.draft.endFrame);
}
