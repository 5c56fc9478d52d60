import { describe, expect, it } from "vitest";
import { DIGIT_CHAIN_MS } from "@/lib/queues/score-keys";
import {
  beginKey,
  initialReviewState,
  reviewReducer,
  type DeferredMove,
  type ReviewAction,
  type ReviewState,
} from "./review-state";

/*
 * The review screen's reducer on its own: each transition the screen's keys and clicks make (drafts, focus, digit
 * chains, the move on a digit defers) as a pure function of the state and the action.
 */
const target = (key: string, max: number, mine: { value: number; note: string | null } | null = null) => ({
  key,
  label: key,
  min: 0,
  max,
  mine: mine && { ...mine, reason: null, version: 1 },
});
const targets = [target("motion", 10), target("physics", 3), target("style", 10)];
const start = () => initialReviewState(targets, null, null);
const run = (state: ReviewState, ...actions: ReviewAction[]) => actions.reduce(reviewReducer, state);
const digit = (
  d: number,
  timeStamp: number,
  digitAdvances = true,
  deferred: DeferredMove | null = null,
): ReviewAction => ({
  type: "digit",
  digit: d,
  timeStamp,
  deferred,
  targets,
  digitAdvances,
});
/** A key as the screen applies it: its start (`begin`), then the digit with the deferred move the start ended. */
function typeKey(state: ReviewState, d: number, timeStamp: number, digitAdvances = true): ReviewState {
  const begun = beginKey(state, String(d), timeStamp, targets.length);
  return reviewReducer(begun.state, digit(d, timeStamp, digitAdvances, begun.deferred));
}
const values = (state: ReviewState) => Object.fromEntries(Object.entries(state.drafts).map(([k, d]) => [k, d.value]));

describe("the review reducer", () => {
  it("starts from the reviewer's stored values, or from the drafts of a submission not saved", () => {
    const stored = initialReviewState(
      [target("motion", 10, { value: 4, note: "blur" }), target("physics", 3)],
      null,
      null,
    );
    expect(stored.drafts).toEqual({
      motion: { value: 4, note: "blur", accepted: false },
      physics: { value: null, note: "", accepted: false },
    });
    const restored = initialReviewState(
      [target("motion", 10, { value: 4, note: "blur" })],
      { motion: { value: 7, note: "kept", accepted: true } },
      { text: "Submitted.", tone: "info" },
    );
    expect(restored.drafts.motion).toEqual({ value: 7, note: "kept", accepted: true });
    expect(restored.message).toEqual({ text: "Submitted.", tone: "info" });
  });

  it("without moving on, a digit scores the focused target and two digits in the chain window make one number", () => {
    let state = typeKey(start(), 1, 1000, false);
    expect(values(state).motion).toBe(1);
    state = typeKey(state, 0, 1000 + DIGIT_CHAIN_MS - 1, false);
    expect(values(state).motion).toBe(10);
    expect(state.focus).toBe(0);
    // After the chain window, a digit starts a new number.
    state = typeKey(state, 3, 1000 + 3 * DIGIT_CHAIN_MS, false);
    expect(values(state).motion).toBe(3);
  });

  it("a digit out of the target's range sets nothing and says the range", () => {
    const state = run(start(), { type: "focus", index: 1 }, digit(7, 1000, false));
    expect(values(state).physics).toBeNull();
    expect(state.message).toEqual({ text: "physics takes 0–3.", tone: "error" });
    // A value typed afterwards clears the error.
    expect(run(state, digit(2, 2000, false)).message).toBeNull();
  });

  it("with a score that moves on, a complete number moves the focus on and marks the move", () => {
    const state = run(start(), { type: "focus", index: 1 }, digit(2, 1000));
    expect(values(state).physics).toBe(2);
    expect(state.focus).toBe(2);
    expect(state.movedOn).toBe(true);
    // j right after that move does not move again; k does.
    const begun = beginKey(state, "j", 1100, targets.length);
    expect(begun.justMoved).toBe(true);
    expect(begun.state.movedOn).toBe(false);
    // On the last target, the focus stays there.
    expect(run(state, digit(5, 1200)).focus).toBe(2);
  });

  it("1 on 0–10 defers the move until the chain window is over; a 0 in time makes 10 and moves on at once", () => {
    let state = typeKey(start(), 1, 1000);
    expect(state.focus).toBe(0);
    expect(state.deferred).toEqual({ target: "motion", at: 1000 });
    state = typeKey(state, 0, 1300);
    expect(values(state).motion).toBe(10);
    expect(state.focus).toBe(1);
    expect(state.deferred).toBeNull();
  });

  it("the chain window's end (advance) moves the focus on, only for the digit it was set for", () => {
    const state = typeKey(start(), 1, 1000);
    expect(run(state, { type: "advance", at: 999, count: 3 }).focus).toBe(0);
    const advanced = run(state, { type: "advance", at: 1000, count: 3 });
    expect(advanced.focus).toBe(1);
    expect(advanced.deferred).toBeNull();
    expect(advanced.movedOn).toBe(true);
  });

  it("a digit that does not continue the deferred number belongs to the next target", () => {
    // 1 on motion (0–10), then 5: 15 is out of range, so the 5 is physics's, which takes 0–3: it says so.
    let state = typeKey(start(), 1, 1000);
    state = typeKey(state, 5, 1200);
    expect(values(state).motion).toBe(1);
    expect(state.focus).toBe(1);
    expect(state.message?.text).toBe("physics takes 0–3.");
    // 1 on motion, then 2: 12 is out of 0–10, so 2 scores physics and the focus moves on from there.
    state = typeKey(typeKey(start(), 1, 1000), 2, 1200);
    expect(values(state)).toMatchObject({ motion: 1, physics: 2 });
    expect(state.focus).toBe(2);
  });

  it("a key other than a digit, typed after the deferred move was due, has the move happen first", () => {
    const state = typeKey(start(), 1, 1000);
    const late = beginKey(state, "y", 1000 + DIGIT_CHAIN_MS + 1, 3);
    expect(late.state.focus).toBe(1);
    expect(late.justMoved).toBe(true);
    expect(late.deferred).toEqual({ target: "motion", at: 1000 });
    // Within the window the focus stays; the deferred move is ended either way.
    const early = beginKey(state, "y", 1000 + DIGIT_CHAIN_MS - 1, 3);
    expect(early.state.focus).toBe(0);
    expect(early.state.deferred).toBeNull();
    expect(early.justMoved).toBe(false);
  });

  it("j / k move the focus within the list", () => {
    let state = run(start(), { type: "step", by: -1, count: 3 });
    expect(state.focus).toBe(0);
    state = run(
      state,
      { type: "step", by: 1, count: 3 },
      { type: "step", by: 1, count: 3 },
      { type: "step", by: 1, count: 3 },
    );
    expect(state.focus).toBe(2);
  });

  it("a click scores like the digit, drops a deferred move, and moves on (or stays without the option)", () => {
    const deferred = typeKey(start(), 1, 1000);
    const moved = run(deferred, { type: "click", index: 1, value: 3, targets, digitAdvances: true });
    expect(values(moved).physics).toBe(3);
    expect(moved.deferred).toBeNull();
    expect(moved.typed).toBeNull();
    expect(moved.focus).toBe(2);
    const stayed = run(start(), { type: "click", index: 1, value: 3, targets, digitAdvances: false });
    expect(stayed.focus).toBe(1);
    expect(stayed.movedOn).toBe(false);
  });

  it("a yes / no answer ends the digit chain and, with the option, moves on from the focused target", () => {
    const chained = typeKey(start(), 1, 1000, false);
    const answered = run(chained, { type: "set", key: "motion", value: 1, endsChain: true, moveOnOf: 3 });
    expect(answered.typed).toBeNull();
    expect(answered.focus).toBe(1);
    const verdict = run(chained, { type: "set", key: "style", value: 0, focus: 2 });
    expect(verdict.typed).toEqual(chained.typed);
    expect(verdict.focus).toBe(2);
  });

  it("accepting takes the judge's values as accepted; the reviewer's own value clears the mark", () => {
    let state = run(start(), { type: "accept", values: [{ key: "motion", value: 6 }] });
    expect(state.drafts.motion).toEqual({ value: 6, note: "", accepted: true });
    state = run(state, { type: "note", key: "motion", note: "close" }, { type: "set", key: "motion", value: 7 });
    expect(state.drafts.motion).toEqual({ value: 7, note: "close", accepted: false });
  });
});
