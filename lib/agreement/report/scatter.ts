import { SCORE_TARGET_TYPE } from "../../reviews/judgment-target";
import type { AgreementItem, ScatterPoint } from "../types";
import type { Declarations } from "./declarations";
import { pairsOf } from "./pairs";

/** Judge against truth for the scores, at most `limit` points evenly spaced over the pairs. */
export function scatter(
  items: readonly AgreementItem[],
  limit: number,
  d: Declarations,
): { total: number; points: ScatterPoint[] } {
  const pairs = pairsOf(
    items.filter((i) => i.targetType === SCORE_TARGET_TYPE),
    (item) => d.truth(item),
  );
  const step = pairs.length > limit ? pairs.length / limit : 1;
  const points: ScatterPoint[] = [];
  for (let k = 0; k < Math.min(limit, pairs.length); k++) {
    const p = pairs[Math.floor(k * step)]!;
    points.push({
      judge: p.judge,
      human: p.human,
      category: p.item.category,
      runId: p.item.runId,
      videoId: p.item.videoId,
      scopeIndex: p.item.scopeIndex,
    });
  }
  return { total: pairs.length, points };
}
