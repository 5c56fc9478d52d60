import type { AgreementItem, ConfusionView } from "../types";
import type { Binary, Declarations } from "./declarations";
import { pairsOf } from "./pairs";

const CELL_ORDER: [Binary, Binary][] = [
  [1, 1],
  [1, 0],
  [0, 1],
  [0, 0],
];
const CELL_VIDEOS = 20;

/** The human × judge table of binarised values, with each cell's count per run and its first videos. */
export function confusionView(items: readonly AgreementItem[], d: Declarations): ConfusionView {
  const cells = CELL_ORDER.map(([human, judge]) => ({
    human,
    judge,
    count: 0,
    runs: new Map<string, number>(),
    videos: new Map<string, { runId: string; videoId: string }>(),
  }));
  let n = 0;
  for (const pair of pairsOf(items, (item) => d.truth(item))) {
    const h = d.binarise(pair.item, pair.human);
    const j = d.binarise(pair.item, pair.judge);
    const cell = cells[CELL_ORDER.findIndex(([a, b]) => a === h && b === j)]!;
    cell.count++;
    n++;
    cell.runs.set(pair.item.runId, (cell.runs.get(pair.item.runId) ?? 0) + 1);
    const key = `${pair.item.runId}:${pair.item.videoId}`;
    if (cell.videos.size < CELL_VIDEOS && !cell.videos.has(key))
      cell.videos.set(key, { runId: pair.item.runId, videoId: pair.item.videoId });
  }
  return {
    n,
    cells: cells.map((c) => ({
      human: c.human,
      judge: c.judge,
      count: c.count,
      runs: [...c.runs].map(([runId, count]) => ({ runId, count })),
      videos: [...c.videos.values()],
    })),
  };
}
