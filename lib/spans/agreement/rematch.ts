/**
 * Matching again only the videos that changed. A pair's row for a video depends on that video alone (its spans, who
 * looked at it, its frame count), so after a write to a few videos the kept pairs' rows of every other video stand:
 * the changed videos are matched on their own and their rows take the place of the kept ones. What comes out is what
 * matching every video afresh gives, as long as the raters, the labels of the rows and the videos with a known frame
 * count are the same (the caller checks; anything else is matched afresh). Pure.
 */
import { type MatchedPairs, type PairRows, matchPairs } from "./span-agreement";
import { STRIDE } from "./video-stats";
import type { SpanAgreementInput } from "./types";

/** `map` with only the keys in `keys`. */
function restricted<V>(map: ReadonlyMap<string, V>, keys: ReadonlySet<string>): Map<string, V> {
  const out = new Map<string, V>();
  for (const key of keys) if (map.has(key)) out.set(key, map.get(key)!);
  return out;
}

/** `videos` with only those in `keys`. */
function restrictedSet(videos: ReadonlySet<string>, keys: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const key of keys) if (videos.has(key)) out.add(key);
  return out;
}

/**
 * The kept rows without those of the videos flagged in `dropped` (by video index), with `added`'s in their place,
 * video indices ascending as in both.
 */
function mergedRows(kept: PairRows, added: PairRows, dropped: Uint8Array, width: number): PairRows {
  let keep = 0;
  for (const v of kept.videos) if (!dropped[v]) keep++;
  const n = keep + added.videos.length;
  const videos = new Int32Array(n);
  const rows = new Float64Array(n * width);
  let i = 0;
  let j = 0;
  for (let at = 0; at < n; at++) {
    while (i < kept.videos.length && dropped[kept.videos[i]!]) i++;
    const fromKept = j >= added.videos.length || (i < kept.videos.length && kept.videos[i]! < added.videos[j]!);
    const source = fromKept ? kept : added;
    const k = fromKept ? i++ : j++;
    videos[at] = source.videos[k]!;
    rows.set(source.rows.subarray(k * width, (k + 1) * width), at * width);
  }
  return { videos, rows };
}

/**
 * The kept matching with the `changed` videos matched again from `input`: its coverage and frame counts are the whole
 * new ones, its spans those of the changed videos alone (every one of theirs that counts).
 */
export function rematchVideos(
  kept: MatchedPairs,
  input: SpanAgreementInput,
  changed: ReadonlySet<string>,
): MatchedPairs {
  const coverage = new Map([...input.coverage].map(([rater, videos]) => [rater, restrictedSet(videos, changed)]));
  const part = matchPairs({ ...input, coverage, frameCounts: restricted(input.frameCounts, changed) }, kept.labels);
  const dropped = new Uint8Array(kept.videoIds.length);
  for (const video of changed) {
    const at = kept.videoIndex.get(video);
    if (at !== undefined) dropped[at] = 1;
  }
  // The part's videos, ids ascending, are a subset of the kept ones: their kept indices ascend with them.
  const toKept = Int32Array.from(part.videoIds, (id) => kept.videoIndex.get(id)!);
  const width = kept.labels.length * STRIDE;
  const pairs = new Map<string, PairRows>();
  for (const [key, rows] of kept.pairs) {
    const added = part.pairs.get(key)!;
    pairs.set(key, mergedRows(rows, { videos: added.videos.map((v) => toKept[v]!), rows: added.rows }, dropped, width));
  }
  const leftOut = new Set([...kept.leftOut].filter((v) => !changed.has(v)));
  for (const video of part.leftOut) leftOut.add(video);
  return { ...kept, raters: input.raters, leftOut, pairs };
}
