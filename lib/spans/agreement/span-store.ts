/**
 * The spans of one agreement computation as columns (typed arrays), ordered by author, then video (ids ascending),
 * then label, then as given: a pair of raters walks its videos in id order with one cursor into each rater's spans,
 * so over a million spans need neither a map per author and video nor a list per label. Only spans of a reported
 * label on a video with a known frame count are kept: no comparison reads any other.
 */
import type { AgreementSpan, SpanTable } from "./match";
import type { SpanAgreementInput } from "./types";

export interface SpanStore extends SpanTable {
  /** The videos with a known frame count, ids ascending: a video's index is its place here. */
  videoIds: string[];
  videoIndex: Map<string, number>;
  /** Frame count by video index. */
  frames: Float64Array;
  labels: number;
  /** Per kept span: video index × labels + label index. */
  key: Int32Array;
  start: Int32Array;
  end: Int32Array;
  boxed: Uint8Array;
  /** Each author's spans: positions [from, to). */
  authors: Map<string, { from: number; to: number }>;
}

/** Stable counting sort of `order` by `bucketOf(order[i])` in [0, buckets). */
function sortedBy(order: Int32Array, bucketOf: Int32Array, buckets: number): Int32Array {
  const first = new Int32Array(buckets + 1);
  for (let i = 0; i < order.length; i++) first[bucketOf[order[i]!]! + 1]!++;
  for (let b = 0; b < buckets; b++) first[b + 1]! += first[b]!;
  const out = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) out[first[bucketOf[order[i]!]!]!++] = order[i]!;
  return out;
}

/** The input's spans as columns; `input.labels` are the labels reported, in order. */
export function storeSpans(input: SpanAgreementInput): SpanStore {
  const videoIds = [...input.frameCounts.keys()].sort();
  const videoIndex = new Map(videoIds.map((id, i) => [id, i]));
  const frames = Float64Array.from(videoIds, (id) => input.frameCounts.get(id)!);
  const labels = input.labels.length;
  const labelIndex = new Map(input.labels.map((l, i) => [l.id, i]));
  const authorIndex = new Map<string, number>();
  const spans = input.spans;
  // Per span of the input: its sort key, author and frames, read in one pass in input order.
  const keyOf = new Int32Array(spans.length);
  const authorOf = new Int32Array(spans.length);
  const startOf = new Int32Array(spans.length);
  const endOf = new Int32Array(spans.length);
  const boxedOf = new Uint8Array(spans.length);
  const kept = new Int32Array(spans.length);
  let keptCount = 0;
  // Spans come in runs of one author and label (the loader's groups): the last lookup is asked first.
  let lastLabel: string | undefined;
  let lastK: number | undefined;
  let lastAuthorId: string | undefined;
  let lastAuthor = 0;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    if (span.label !== lastLabel) lastK = labelIndex.get((lastLabel = span.label));
    const v = videoIndex.get(span.videoId);
    if (lastK === undefined || v === undefined) continue;
    if (span.authorId !== lastAuthorId) {
      lastAuthorId = span.authorId;
      let author = authorIndex.get(lastAuthorId);
      if (author === undefined) authorIndex.set(lastAuthorId, (author = authorIndex.size));
      lastAuthor = author;
    }
    keyOf[i] = v * labels + lastK;
    authorOf[i] = lastAuthor;
    startOf[i] = span.startFrame;
    endOf[i] = span.endFrame;
    boxedOf[i] = span.boxes.length > 0 ? 1 : 0;
    kept[keptCount++] = i;
  }
  const order = sortedBy(
    sortedBy(kept.subarray(0, keptCount), keyOf, videoIds.length * labels),
    authorOf,
    authorIndex.size,
  );
  const key = new Int32Array(order.length);
  const start = new Int32Array(order.length);
  const end = new Int32Array(order.length);
  const boxed = new Uint8Array(order.length);
  const bounds = new Int32Array(authorIndex.size + 1);
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    key[j] = keyOf[i]!;
    start[j] = startOf[i]!;
    end[j] = endOf[i]!;
    boxed[j] = boxedOf[i]!;
    bounds[authorOf[i]! + 1] = j + 1;
  }
  for (let a = 0; a < authorIndex.size; a++) bounds[a + 1] = Math.max(bounds[a + 1]!, bounds[a]!);
  const authors = new Map([...authorIndex].map(([id, a]) => [id, { from: bounds[a]!, to: bounds[a + 1]! }]));
  return {
    videoIds,
    videoIndex,
    frames,
    labels,
    key,
    start,
    end,
    boxed,
    authors,
    spanOf: (j: number): AgreementSpan => spans[order[j]!]!,
  };
}

/** A cursor over one author's spans in store order, read one (video, label) key after another, keys ascending. */
export class SpanCursor {
  private at: number;
  /** The spans of the last key read: positions [from, to). */
  from = 0;
  to = 0;

  constructor(
    private readonly store: SpanStore,
    range: { from: number; to: number } | undefined,
    private readonly last = range?.to ?? 0,
  ) {
    this.at = range?.from ?? 0;
  }

  /** Moves to the spans of `key` (never below the last key read). */
  read(key: number): void {
    const keys = this.store.key;
    while (this.at < this.last && keys[this.at]! < key) this.at++;
    this.from = this.at;
    while (this.at < this.last && keys[this.at] === key) this.at++;
    this.to = this.at;
  }
}
