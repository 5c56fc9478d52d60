/**
 * How many targets each item of a "judge's scores" queue would ask, shown by the new-queue form before it is
 * created (a hallucination run asks 96 per video when every category is chosen), and what presence first would cut
 * that to: one question per category, then the scores of the categories present. Who says present is known only
 * while reviewing, so the cut is counted by the judge's presence; a reviewer who marks more categories gets more.
 * Plain TS over the run's scores grouped by video and category.
 */

/** One video's scores of one category in the run: how many, and the judge's highest (its presence). */
export interface CategoryScores {
  videoId: string;
  category: string;
  count: number;
  max: number | null;
}

/** Targets per item over the queue's videos. */
interface PerItemCount {
  min: number;
  max: number;
  mean: number;
}

export interface QueueTargetCounts {
  /** Every score of the chosen categories: what full grading asks of each video. */
  full: PerItemCount;
  /**
   * Presence first: `questions` (one per presence category) and then the scores of the categories present by the
   * judge, plus every score of a category without presence. Null when the task declares no presence.
   */
  presenceFirst: { questions: number; scores: PerItemCount } | null;
}

function perItem(counts: readonly number[]): PerItemCount {
  if (counts.length === 0) return { min: 0, max: 0, mean: 0 };
  return {
    min: Math.min(...counts),
    max: Math.max(...counts),
    mean: counts.reduce((a, b) => a + b, 0) / counts.length,
  };
}

/**
 * `rows` hold only the chosen categories' scores (rows of videos outside `videoIds` are ignored); `presence`: the
 * categories asked first (already narrowed to the chosen ones) and the judge's threshold, or null.
 */
export function queueTargetCounts(
  videoIds: readonly string[],
  rows: readonly CategoryScores[],
  presence: { categories: readonly string[]; threshold: number } | null,
): QueueTargetCounts {
  const byVideo = new Map<string, CategoryScores[]>(videoIds.map((id) => [id, []]));
  for (const row of rows) byVideo.get(row.videoId)?.push(row);
  const full = [...byVideo.values()].map((scores) => scores.reduce((sum, row) => sum + row.count, 0));
  if (!presence) return { full: perItem(full), presenceFirst: null };
  const asked = new Set(presence.categories);
  const graded = [...byVideo.values()].map((scores) =>
    scores.reduce(
      (sum, row) =>
        sum + (!asked.has(row.category) || (row.max !== null && row.max >= presence.threshold) ? row.count : 0),
      0,
    ),
  );
  return { full: perItem(full), presenceFirst: { questions: asked.size, scores: perItem(graded) } };
}

/** "96", or "60–96 (84 on average)" when the videos differ. */
export function perItemText({ min, max, mean }: PerItemCount): string {
  if (min === max) return String(min);
  return `${min}–${max} (${Number.isInteger(mean) ? mean : mean.toFixed(1)} on average)`;
}
