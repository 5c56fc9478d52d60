/**
 * The review screen's state for the item on screen, as one reducer: the reviewer's drafts, which target has the focus,
 * the number being typed (digit chains: "1" then "0" is 10 on a 0–10 scale), the move on that waits for a chain to end,
 * and the status line. Plain TS: every transition is a pure function of the state and the action, tested on its own.
 */
import {
  awaitsMoreDigits,
  continuesNumber,
  DIGIT_CHAIN_MS,
  typeDigit,
  type TypedNumber,
} from "@/lib/queues/score-keys";
import type { Draft, TargetView } from "@/components/queues/review-types";

/** The screen's one status line; `jumpTo`: the key of a target left without a value, which a button goes to. */
export interface ReviewMessage {
  text: string;
  tone: "info" | "error";
  jumpTo?: string;
}

/** "A score moves on": a digit whose number may still grow (1 on 0–10) moves the focus on after the chain window, not at once. */
export interface DeferredMove {
  target: string;
  at: number;
}

export interface ReviewState {
  focus: number;
  drafts: Record<string, Draft>;
  typed: TypedNumber | null;
  deferred: DeferredMove | null;
  /** The focus has just moved on by itself: a j or ↓ typed next does not move it again (j between scores still lands on the next target). */
  movedOn: boolean;
  message: ReviewMessage | null;
}

/** What a digit needs of a target: where its value goes and the range it takes. */
export type DigitTarget = Pick<TargetView, "key" | "label" | "min" | "max">;

export type ReviewAction =
  /** A key starts being applied: the move a digit deferred ends, done first when it was due before this key. */
  | { type: "begin"; key: string; timeStamp: number; count: number }
  /** The chain window of the digit typed at `at` is over: its deferred move happens now. */
  | { type: "advance"; at: number; count: number }
  /** j / k: the focus moves by one target, staying within the list. */
  | { type: "step"; by: 1 | -1; count: number }
  | { type: "focus"; index: number }
  /**
   * A value set by a key or a field; `focus` moves the focus there. A yes/no answer typed on the focused question ends
   * any digit chain (`endsChain`) and, with "a score moves on", moves on as a digit does (`moveOnOf`: the targets' count).
   */
  | { type: "set"; key: string; value: number; focus?: number; endsChain?: boolean; moveOnOf?: number }
  /** A digit typed on the focused target (or, once its number is complete and "a score moves on", on the next one). */
  | {
      type: "digit";
      digit: number;
      timeStamp: number;
      /** The move `begin` ended for this key, if any. */
      deferred: DeferredMove | null;
      targets: readonly DigitTarget[];
      digitAdvances: boolean;
    }
  /** A click on one of a target's values: the same as typing it, with any chain or deferred move dropped. */
  | { type: "click"; index: number; value: number; targets: readonly DigitTarget[]; digitAdvances: boolean }
  | { type: "note"; key: string; note: string }
  /** The judge's values taken as the reviewer's (a / A). */
  | { type: "accept"; values: readonly { key: string; value: number }[] }
  | { type: "message"; message: ReviewMessage | null };

export function initialReviewState(
  targets: readonly Pick<TargetView, "key" | "mine">[],
  restored: Record<string, Draft> | null,
  message: ReviewMessage | null,
): ReviewState {
  return {
    focus: 0,
    drafts: Object.fromEntries(
      targets.map((t) => [
        t.key,
        restored?.[t.key] ?? {
          value: t.mine?.value ?? null,
          note: t.mine?.note ?? "",
          accepted: t.mine?.acceptedJudge ?? false,
        },
      ]),
    ),
    typed: null,
    deferred: null,
    movedOn: false,
    message,
  };
}

/** The key's start: the deferred move it ends, and whether the focus has just moved on by itself (so j does nothing). */
export function beginKey(
  state: ReviewState,
  key: string,
  timeStamp: number,
  count: number,
): { state: ReviewState; deferred: DeferredMove | null; justMoved: boolean } {
  const deferred = state.deferred;
  const next = { ...state, deferred: null, movedOn: false };
  // A digit's move that was due before this key (keys replayed after a hold carry their own times) happens first.
  if (deferred && !/^[0-9]$/.test(key) && timeStamp - deferred.at > DIGIT_CHAIN_MS)
    return { state: { ...next, focus: after(state.focus, count) }, deferred, justMoved: true };
  return { state: next, deferred, justMoved: state.movedOn };
}

/** The target after `index` (the focus stays on the last). */
const after = (index: number, count: number) => Math.min(index + 1, count - 1);

/** A value of the reviewer's own: it is no longer the judge's accepted one, and an error the status line showed is over. */
function withValue(state: ReviewState, key: string, value: number): ReviewState {
  return {
    ...state,
    drafts: { ...state.drafts, [key]: { ...state.drafts[key]!, value, accepted: false } },
    message: state.message?.tone === "error" ? null : state.message,
  };
}

function typeOn(state: ReviewState, action: Extract<ReviewAction, { type: "digit" }>): ReviewState {
  const { digit, timeStamp, deferred, targets, digitAdvances } = action;
  const focused = targets[state.focus];
  if (!focused) return state;
  let index = state.focus;
  let typed = state.typed;
  // "A score moves on": the focused target's number is complete (this digit does not continue it), so the digit is the next target's.
  if (
    digitAdvances &&
    deferred &&
    deferred.target === focused.key &&
    !continuesNumber(typed, focused.key, digit, timeStamp, focused)
  ) {
    index = after(state.focus, targets.length);
    typed = null;
  }
  const target = targets[index]!;
  const next = typeDigit(typed, target.key, digit, timeStamp, target);
  if (!next)
    return {
      ...state,
      focus: index,
      typed,
      message: { text: `${target.label} takes ${target.min}–${target.max}.`, tone: "error" },
    };
  const valued = { ...withValue(state, target.key, next.value), focus: index, typed: next };
  if (!digitAdvances) return valued;
  if (!awaitsMoreDigits(next, target)) return { ...valued, focus: after(index, targets.length), movedOn: true };
  // 1 on 0–10 may become 10: move on once no second digit has come within the chain window.
  return { ...valued, deferred: { target: target.key, at: timeStamp } };
}

export function reviewReducer(state: ReviewState, action: ReviewAction): ReviewState {
  switch (action.type) {
    case "begin":
      return beginKey(state, action.key, action.timeStamp, action.count).state;
    case "advance":
      if (state.deferred?.at !== action.at) return state;
      return { ...state, deferred: null, focus: after(state.focus, action.count), movedOn: true };
    case "step":
      return { ...state, focus: Math.max(0, Math.min(state.focus + action.by, action.count - 1)) };
    case "focus":
      return { ...state, focus: action.index };
    case "set": {
      const valued = { ...withValue(state, action.key, action.value), typed: action.endsChain ? null : state.typed };
      if (action.moveOnOf !== undefined)
        return { ...valued, focus: after(state.focus, action.moveOnOf), movedOn: true };
      return action.focus === undefined ? valued : { ...valued, focus: action.focus };
    }
    case "digit":
      return typeOn(state, action);
    case "click": {
      const target = action.targets[action.index]!;
      const valued = { ...withValue(state, target.key, action.value), typed: null, deferred: null, movedOn: false };
      return action.digitAdvances
        ? { ...valued, focus: after(action.index, action.targets.length), movedOn: true }
        : { ...valued, focus: action.index };
    }
    case "note":
      return {
        ...state,
        drafts: { ...state.drafts, [action.key]: { ...state.drafts[action.key]!, note: action.note } },
      };
    case "accept":
      return {
        ...state,
        drafts: {
          ...state.drafts,
          ...Object.fromEntries(
            action.values.map((v) => [v.key, { ...state.drafts[v.key]!, value: v.value, accepted: true }]),
          ),
        },
      };
    case "message":
      return { ...state, message: action.message };
  }
}
