/**
 * Seed 004's video trimming strategy (Appendix C) for Ego4D Goal-Step and Ego-Exo4D: long videos (26 minutes
 * on average) with repeated steps become clips of comparable length to HiREST and YouCook2 videos.
 *
 * From the first step, steps are accumulated into a clip until its duration exceeds 4 minutes (rule 1). The
 * clip is then kept only if it has at least 7 steps (rule 2), its distinct step categories are at least 50%
 * of its steps (rule 3), and no category repeats too often in a row (rule 4). The next clip starts from the
 * step after it (rule 5), until every step has been examined.
 *
 * Choices where the seed's words leave room, so that the result is reproducible:
 * - The step whose end carries the clip past 4 minutes belongs to the clip; the next clip starts after it.
 * - Rule 4 reads literally "the total number of steps should be at least 50% of the maximum number of
 *   consecutive occurrences of any single step category", which always holds (a run is never longer than the
 *   clip). Its stated purpose is to control repetition, so it is applied as: the longest run of one category
 *   is at most 50% of the clip's steps.
 * - Steps left at the end that never reach 4 minutes make no clip; they are reported as discarded, as is a
 *   clip that fails rules 2–4, with the reason.
 * - A step's category is its `category`, else its text (case and spaces folded). Substeps travel with their step.
 * - Clip times are seconds from the clip's start: the clip is what the generator and the frames describe.
 */
import type { AnnotatedStep, AnnotationDataset } from "./step-annotations";

/** Rule 1: a clip closes once it lasts longer than this. */
export const CLIP_MIN_SECONDS = 4 * 60;
/** Rule 2: the average of 7.5 steps per HiREST and YouCook2 video, rounded down. */
export const CLIP_MIN_STEPS = 7;
/** Rule 3: distinct categories as a share of the clip's steps, at least. */
export const CLIP_MIN_DISTINCT_CATEGORY_SHARE = 0.5;
/** Rule 4: the longest run of one category as a share of the clip's steps, at most. */
export const CLIP_MAX_REPEAT_RUN_SHARE = 0.5;
/** The datasets the seed trims; others are used whole. */
export const TRIMMED_DATASETS: readonly AnnotationDataset[] = ["ego4d-goalstep", "egoexo4d"];

export interface Clip {
  /** 0-based among the video's kept clips. */
  index: number;
  /** Seconds in the source video. */
  start: number;
  end: number;
  /** Indexes of the source steps, first and last (inclusive). */
  fromStep: number;
  toStep: number;
  /** The steps with times from the clip's start. */
  steps: AnnotatedStep[];
}

export interface DiscardedSteps {
  fromStep: number;
  toStep: number;
  reason: string;
}

export interface TrimResult {
  clips: Clip[];
  discarded: DiscardedSteps[];
}

export function stepCategory(step: Pick<AnnotatedStep, "category" | "text">): string {
  return (step.category ?? step.text).trim().toLowerCase().replace(/\s+/g, " ");
}

function longestRun(categories: readonly string[]): number {
  let longest = 0;
  let run = 0;
  categories.forEach((category, i) => {
    run = i > 0 && categories[i - 1] === category ? run + 1 : 1;
    longest = Math.max(longest, run);
  });
  return longest;
}

/** Why rules 2–4 reject these steps as a clip, or null when they make one. */
export function clipRejection(steps: readonly AnnotatedStep[]): string | null {
  if (steps.length < CLIP_MIN_STEPS) return `${steps.length} steps, fewer than ${CLIP_MIN_STEPS}`;
  const categories = steps.map(stepCategory);
  const distinct = new Set(categories).size;
  if (distinct < CLIP_MIN_DISTINCT_CATEGORY_SHARE * steps.length) {
    return `${distinct} distinct step categories in ${steps.length} steps, fewer than ${CLIP_MIN_DISTINCT_CATEGORY_SHARE * 100}%`;
  }
  const run = longestRun(categories);
  if (run > CLIP_MAX_REPEAT_RUN_SHARE * steps.length) {
    return `one category repeats ${run} times in a row in ${steps.length} steps, more than ${CLIP_MAX_REPEAT_RUN_SHARE * 100}%`;
  }
  return null;
}

const shift = (step: AnnotatedStep, by: number): AnnotatedStep => ({
  ...step,
  start: round(step.start - by),
  end: round(step.end - by),
  substeps: step.substeps.map((sub) => shift(sub, by)),
});
/** Differences of decimal seconds, without binary noise (27.16 − 0.16 prints as 27). */
const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

export function trimIntoClips(steps: readonly AnnotatedStep[]): TrimResult {
  const clips: Clip[] = [];
  const discarded: DiscardedSteps[] = [];
  let from = 0;
  while (from < steps.length) {
    const clipStart = steps[from]!.start;
    let to = from;
    let end = steps[from]!.end;
    while (end - clipStart <= CLIP_MIN_SECONDS && to + 1 < steps.length) {
      to += 1;
      end = Math.max(end, steps[to]!.end);
    }
    const members = steps.slice(from, to + 1);
    if (end - clipStart <= CLIP_MIN_SECONDS) {
      discarded.push({
        fromStep: from,
        toStep: to,
        reason: `the remaining steps last ${round(end - clipStart)}s, not more than ${CLIP_MIN_SECONDS}s`,
      });
      break;
    }
    const rejection = clipRejection(members);
    if (rejection) discarded.push({ fromStep: from, toStep: to, reason: rejection });
    else
      clips.push({
        index: clips.length,
        start: clipStart,
        end,
        fromStep: from,
        toStep: to,
        steps: members.map((step) => shift(step, clipStart)),
      });
    from = to + 1;
  }
  return { clips, discarded };
}
