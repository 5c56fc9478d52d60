/**
 * The loader's wire format of spans: a 50,000-video project holds over a million spans, and a row or a JSON value
 * each costs more to build and to decode than the agreement computed from them. So the query sends a few rows: the
 * scope's video ids once (the spans point into them by index), and per author and label one group whose spans are
 * packed as columns side by side, in the same order:
 *   - `ids`: the span ids joined by newlines (an id never holds one), read for the matching's ties;
 *   - `frames`: base64 of SPAN_BYTES bytes per span, big-endian as PostgreSQL's int4send writes them: the video's index
 *     in the video ids, startFrame, endFrame, then one byte, 1 when the span has boxes;
 *   - `boxes`: the boxes (a JSON array each) of the spans flagged so, in order, joined by newlines (JSON text of jsonb
 *     holds none).
 */
import type { BoxKeyframe } from "../span-types";
import type { SpanAgreementRow, SpanRaterKind } from "./types";

/** Bytes per span in a group's `frames`. */
export const SPAN_BYTES = 13;

/** One author's spans of one label, as the loader's query sends them. */
export interface SpanGroup {
  authorId: string;
  authorKind: SpanRaterKind;
  label: string;
  ids: string;
  frames: string;
  boxes: string | null;
}

/** A span row with its author's kind. */
export type LoadedSpan = SpanAgreementRow & { authorKind: SpanRaterKind };

const NO_BOXES: readonly BoxKeyframe[] = Object.freeze([]);

/**
 * The valid boxes of a stored value, sorted by frame (the store validated them; anything else is dropped, never a
 * crash). Not span-validation.ts's sortedBoxes, which sorts boxes already checked.
 */
function validStoredBoxes(stored: unknown): BoxKeyframe[] {
  if (!Array.isArray(stored)) return [];
  const boxes = stored.filter(
    (b): b is BoxKeyframe =>
      typeof b === "object" &&
      b !== null &&
      ["frame", "x", "y", "w", "h"].every((k) => typeof (b as Record<string, unknown>)[k] === "number"),
  );
  return boxes.sort((a, b) => a.frame - b.frame);
}

/** The spans of the groups, `videoIds` the newline-joined ids their video indices point into. */
export function decodeSpanGroups(videoIds: string, groups: readonly SpanGroup[]): LoadedSpan[] {
  const videos = videoIds === "" ? [] : videoIds.split("\n");
  const spans: LoadedSpan[] = [];
  for (const group of groups) {
    const ids = group.ids.split("\n");
    const frames = Buffer.from(group.frames, "base64");
    if (frames.length !== ids.length * SPAN_BYTES)
      throw new Error(`span group ${group.authorId}/${group.label}: ${ids.length} ids but ${frames.length} bytes`);
    const boxes = group.boxes === null ? [] : group.boxes.split("\n");
    let boxed = 0;
    const { authorId, authorKind, label } = group;
    for (let i = 0; i < ids.length; i++) {
      const at = i * SPAN_BYTES;
      const videoId = videos[frames.readInt32BE(at)];
      if (videoId === undefined) throw new Error(`span ${ids[i]}: video index out of range`);
      spans.push({
        id: ids[i]!,
        videoId,
        authorId,
        authorKind,
        label,
        startFrame: frames.readInt32BE(at + 4),
        endFrame: frames.readInt32BE(at + 8),
        boxes: frames[at + 12] === 1 ? validStoredBoxes(JSON.parse(boxes[boxed++] ?? "null")) : NO_BOXES,
      });
    }
  }
  return spans;
}
