/**
 * The pair review screen's state and keys, as one pure reducer: every key goes through `reviewReducer` in the order
 * it was pressed, and keys pressed while a submission is on its way are held and applied to the pair that comes next,
 * so fast typing loses no verdict. Verdict keys speak of the sides as shown now (LEFT/RIGHT) and are turned into the
 * pair's A/B through the current side mapping (the drawn side, flipped while the reviewer has swapped the view).
 */
import type { Aspect } from "@/lib/pairwise/aspects";
import type { PairForReview, ReviewVerdict } from "@/lib/pairwise/review/review.types";
import type { Side, Strength, Verdict } from "@/lib/pairwise/verdicts";

export interface Draft {
  verdict: Verdict;
  strength: Strength;
}

/** A key as the screen reads it: `key` as typed, `code` for the physical key (Shift+1 is "!" on many layouts). */
export interface KeyPress {
  key: string;
  code?: string;
  shift?: boolean;
}

/** What a key asks the players to do (the screen performs it; the reducer only counts it so each is done once). */
export type PlayerCommand = "toggle" | "step-back" | "step-forward";

export interface ReviewState {
  pair: PairForReview | null;
  focus: number;
  drafts: Record<string, Draft | undefined>;
  /** The reviewer flipped the view: A is shown on the other side than the drawn one. */
  swapped: boolean;
  zoom: Side | null;
  help: boolean;
  /** A submission (or the first load) is on its way: keys wait in `held`. */
  busy: boolean;
  held: KeyPress[];
  /** The verdicts to submit, set by Enter; the screen sends them and answers with `loaded`. */
  submitting: { pairId: string; drafts: Record<string, Draft> } | null;
  message: string | null;
  commands: PlayerCommand[];
}

export type ReviewAction =
  | { type: "key"; press: KeyPress }
  | { type: "verdict"; aspect: string; side: Side | "tie_good" | "tie_bad"; strong?: boolean }
  | { type: "focus"; index: number }
  | { type: "swap" }
  | { type: "zoom"; side: Side | null }
  | { type: "help"; open: boolean }
  | { type: "submit" }
  | { type: "loaded"; pair: PairForReview | null }
  | { type: "failed"; message: string }
  | { type: "commands-done"; count: number };

export const initialReviewState: ReviewState = {
  pair: null,
  focus: 0,
  drafts: {},
  swapped: false,
  zoom: null,
  help: false,
  busy: true,
  held: [],
  submitting: null,
  message: null,
  commands: [],
};

/** The key list `?` shows. */
export const PAIR_REVIEW_KEYS: readonly (readonly [string, string])[] = [
  ["1", "Left is better (Shift+1: much better, on a five-level aspect)"],
  ["2", "Right is better (Shift+2: much better, on a five-level aspect)"],
  ["3", "Both good"],
  ["4", "Both bad"],
  ["0 / Backspace", "Clear the focused aspect's verdict"],
  ["Tab / ↓ / j", "Next aspect (Shift+Tab / ↑ / k: previous)"],
  ["Space", "Play / pause both videos"],
  [", / .", "Step both videos one frame back / forward"],
  ["s", "Swap sides (a view action: verdicts keep their meaning)"],
  ["z", "Zoom: left, right, both"],
  ["Enter", "Submit (once every aspect has a verdict) and take the next pair"],
  ["?", "Show or hide this list"],
];

/** The side video A is on as shown now. */
export function aSideNow(pair: PairForReview, swapped: boolean): Side {
  if (!swapped) return pair.aShownOn;
  return pair.aShownOn === "left" ? "right" : "left";
}

/** A verdict said of the sides as shown, in the pair's A/B terms. */
export function verdictOfSide(side: Side | "tie_good" | "tie_bad", aSide: Side): Verdict {
  if (side === "tie_good" || side === "tie_bad") return side;
  return side === aSide ? "A" : "B";
}

function draftsOf(verdicts: ReviewVerdict[]): Record<string, Draft> {
  const drafts: Record<string, Draft> = {};
  for (const saved of verdicts)
    if (!saved.withdrawn) drafts[saved.aspect] = { verdict: saved.verdict, strength: saved.strength };
  return drafts;
}

function aspectsOf(state: ReviewState): Aspect[] {
  return state.pair?.aspects ?? [];
}

function withVerdict(
  state: ReviewState,
  aspectId: string,
  side: Side | "tie_good" | "tie_bad",
  strong: boolean,
): ReviewState {
  const pair = state.pair;
  const aspects = aspectsOf(state);
  const index = aspects.findIndex((aspect) => aspect.id === aspectId);
  if (!pair || index < 0) return state;
  const aspect = aspects[index]!;
  const tie = side === "tie_good" || side === "tie_bad";
  if (strong && (aspect.levels !== 5 || tie))
    return { ...state, message: `${aspect.label} has no strong level for that verdict.` };
  const draft: Draft = { verdict: verdictOfSide(side, aSideNow(pair, state.swapped)), strength: strong ? 2 : 1 };
  return {
    ...state,
    drafts: { ...state.drafts, [aspectId]: draft },
    focus: Math.min(index + 1, aspects.length - 1),
    message: null,
  };
}

function missingAspects(state: ReviewState): Aspect[] {
  return aspectsOf(state).filter((aspect) => !state.drafts[aspect.id]);
}

function submitted(state: ReviewState): ReviewState {
  const pair = state.pair;
  if (!pair || state.busy) return state;
  const missing = missingAspects(state);
  if (missing.length > 0) {
    const focus = aspectsOf(state).indexOf(missing[0]!);
    return {
      ...state,
      focus,
      message: `Give a verdict on every aspect first: ${missing.map((a) => a.label).join(", ")}.`,
    };
  }
  const drafts = Object.fromEntries(Object.entries(state.drafts).filter(([, draft]) => draft)) as Record<string, Draft>;
  return { ...state, busy: true, submitting: { pairId: pair.pairId, drafts }, message: null };
}

const VERDICT_DIGITS: Record<string, Side | "tie_good" | "tie_bad"> = {
  "1": "left",
  "2": "right",
  "3": "tie_good",
  "4": "tie_bad",
};

/** The digit a key stands for: its physical key's (so Shift+1 is 1, whatever the layout types). */
function digitOf(press: KeyPress): string | null {
  if (press.code?.startsWith("Digit")) return press.code.slice(5);
  if (press.code?.startsWith("Numpad") && /^Numpad\d$/.test(press.code)) return press.code.slice(6);
  return /^\d$/.test(press.key) ? press.key : null;
}

function moved(state: ReviewState, by: number): ReviewState {
  const last = Math.max(aspectsOf(state).length - 1, 0);
  return { ...state, focus: Math.min(Math.max(state.focus + by, 0), last) };
}

function command(state: ReviewState, what: PlayerCommand): ReviewState {
  return { ...state, commands: [...state.commands, what] };
}

function cleared(state: ReviewState): ReviewState {
  const aspect = aspectsOf(state)[state.focus];
  if (!aspect) return state;
  return { ...state, drafts: { ...state.drafts, [aspect.id]: undefined } };
}

const ZOOM_NEXT: Record<"none" | Side, Side | null> = { none: "left", left: "right", right: null };

/** One key on the pair on screen (or held while a submission is on its way). */
export function applyKey(state: ReviewState, press: KeyPress): ReviewState {
  if (state.busy) return { ...state, held: [...state.held, press] };
  const digit = digitOf(press);
  if (digit && VERDICT_DIGITS[digit]) {
    const aspect = aspectsOf(state)[state.focus];
    return aspect ? withVerdict(state, aspect.id, VERDICT_DIGITS[digit]!, press.shift === true) : state;
  }
  if (digit === "0") return cleared(state);
  switch (press.key) {
    case "Backspace":
      return cleared(state);
    case "Tab":
      return moved(state, press.shift ? -1 : 1);
    case "ArrowDown":
    case "j":
      return moved(state, 1);
    case "ArrowUp":
    case "k":
      return moved(state, -1);
    case " ":
      return command(state, "toggle");
    case ",":
      return command(state, "step-back");
    case ".":
      return command(state, "step-forward");
    case "s":
      return { ...state, swapped: !state.swapped };
    case "z":
      return { ...state, zoom: ZOOM_NEXT[state.zoom ?? "none"] };
    case "?":
      return { ...state, help: !state.help };
    case "Enter":
      return submitted(state);
    default:
      return state;
  }
}

/** The next pair arrived: its saved verdicts become the drafts, then the held keys are applied to it in order. */
function loaded(state: ReviewState, pair: PairForReview | null): ReviewState {
  const fresh: ReviewState = {
    ...state,
    pair,
    focus: 0,
    drafts: pair ? draftsOf(pair.verdicts) : {},
    swapped: false,
    zoom: null,
    busy: false,
    held: [],
    submitting: null,
  };
  if (!pair) return fresh;
  return state.held.reduce(applyKey, fresh);
}

export function reviewReducer(state: ReviewState, action: ReviewAction): ReviewState {
  switch (action.type) {
    case "key":
      return applyKey(state, action.press);
    case "verdict":
      return state.busy ? state : withVerdict(state, action.aspect, action.side, action.strong === true);
    case "focus":
      return { ...state, focus: action.index };
    case "swap":
      return { ...state, swapped: !state.swapped };
    case "zoom":
      return { ...state, zoom: action.side };
    case "help":
      return { ...state, help: action.open };
    case "submit":
      return submitted(state);
    case "loaded":
      return loaded(state, action.pair);
    case "failed":
      // The submission failed: the drafts stay on screen to send again; held keys are dropped with a message.
      return { ...state, busy: false, submitting: null, held: [], message: action.message };
    case "commands-done":
      return { ...state, commands: state.commands.slice(action.count) };
    default: {
      const unknown: never = action;
      return unknown;
    }
  }
}
