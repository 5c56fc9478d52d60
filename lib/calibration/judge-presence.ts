import { judgePresence as presenceOfScores } from "../task-modules/task-declaration";

/**
 * The judge's per-video presence of a hallucination category, for comparing a 0–10 judge with
 * present/absent labels: the task's declared presence rule (lib/task-modules/task-declaration.ts, the same one
 * the agreement report sweeps), present when the video's worst score of the category (over its key frames
 * or clusters) is at least t. The worst, not a mean, because the labels say whether the category shows
 * anywhere in the video, and the run's default aggregation ("mean-max") takes each category's worst frame too.
 */
export interface CategoryScore {
  category: string;
  value: number;
}

/** true / false, or null when the run has no score of the category for the video (never a guess). */
export function judgePresence(scores: readonly CategoryScore[], category: string, t: number): boolean | null {
  const values = scores
    .filter((score) => score.category === category && Number.isFinite(score.value))
    .map((score) => score.value);
  const presence = presenceOfScores(values, t);
  return presence === null ? null : presence === 1;
}

/**
 * "Any of these categories present": present when one is, absent when every one is known absent,
 * unknown otherwise (a missing category could be the present one). The same rule reads a label set's
 * "static hallucination" (any s1–s10) and the judge's.
 */
export function anyPresent(values: readonly (boolean | null | undefined)[]): boolean | null {
  if (values.some((v) => v === true)) return true;
  return values.length > 0 && values.every((v) => v === false) ? false : null;
}
