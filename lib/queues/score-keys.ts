import type { TaskDeclaration } from "../task-modules/task-declaration";
/**
 * Typing numbers on the review screen: digits typed within DIGIT_CHAIN_MS of each other build one
 * number while it stays within the target's range, so on a 0–10 scale "1" then "0" is 10 (and "1"
 * alone, or "1" then a pause, is 1); on 0–100, "8" "5" is 85 and "1" "0" "0" is 100. A digit that
 * would leave the range starts a new number. Plain TS, shared by the screen and its tests.
 */
export const DIGIT_CHAIN_MS = 600;

export interface TypedNumber {
  /** The number typed so far. */
  value: number;
  /** When its last digit was typed (ms). */
  at: number;
  /** The target it was typed on: a new target starts a new number. */
  target: string;
}

export function typeDigit(
  previous: TypedNumber | null,
  target: string,
  digit: number,
  now: number,
  range: { min: number; max: number },
): TypedNumber | null {
  if (!Number.isInteger(digit) || digit < 0 || digit > 9) return null;
  if (previous && previous.target === target && now - previous.at <= DIGIT_CHAIN_MS && previous.value > 0) {
    const chained = previous.value * 10 + digit;
    if (chained <= range.max) return { value: chained, at: now, target };
  }
  if (digit < range.min || digit > range.max) return null;
  return { value: digit, at: now, target };
}

/**
 * With "a digit moves on" (the review screen's option): whether the number typed so far may still grow by another
 * digit on its target (a 1 on 0–10 may become 10), so the move to the next target waits for the chain window;
 * otherwise the focus moves on at once.
 */
export function awaitsMoreDigits(typed: TypedNumber, range: { max: number }): boolean {
  return typed.value > 0 && typed.value * 10 <= range.max;
}

/** Whether `digit`, typed at `now`, continues the number typed on `target` (rather than starting a new one). */
export function continuesNumber(
  previous: TypedNumber | null,
  target: string,
  digit: number,
  now: number,
  range: { max: number },
): boolean {
  return (
    previous !== null &&
    previous.target === target &&
    now - previous.at <= DIGIT_CHAIN_MS &&
    previous.value > 0 &&
    previous.value * 10 + digit <= range.max
  );
}

/**
 * The scores of the chosen targets, as a where on score.category (none chosen: every score): a target's scores are
 * stored under its id, an indexed target's under `<prefix><n>` (VBench-2.0's `material:q2`, a caption's `kp:3`).
 */
export function scoreCategoryWhere(task: Pick<TaskDeclaration, "indexedTargets">, targetIds: readonly string[]) {
  if (targetIds.length === 0) return {};
  const prefixes = (task.indexedTargets ?? []).filter((t) => targetIds.includes(t.targetId)).map((t) => t.prefix);
  if (prefixes.length === 0) return { category: { in: [...targetIds] } };
  return {
    OR: [{ category: { in: [...targetIds] } }, ...prefixes.map((prefix) => ({ category: { startsWith: prefix } }))],
  };
}
