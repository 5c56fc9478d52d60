import { z } from "zod";
import { ValidationError } from "../errors";
import { noNulBytes } from "../validation/nul-bytes";

/**
 * A position in the video list's order, for keyset pagination: the sort value and id of a row on
 * the page it was made from, which way to read from it, and the page number that reading reaches.
 * The list's order is (sort value, in the list's direction, NULLS LAST; then id ascending), so the
 * pair names one place in it even when many rows share a value, and a page read from it costs an
 * index range instead of an OFFSET through every row before it.
 *
 * On the wire it is opaque: base64url of a small JSON object. A long text value (a prompt may have
 * 20,000 characters) is not carried: the cursor says to read it from the row, so a cursor stays short
 * enough for a URL. A cursor that does not decode, does not match the schema, or was made for another
 * sort or direction is refused (400), never read as "the first page".
 */
export interface VideoListCursor {
  sort: string;
  dir: "asc" | "desc";
  /** `after`: the rows following the position (next page); `before`: the rows preceding it (previous page). */
  toward: "after" | "before";
  /**
   * The row's sort value: a number for a metric, text for path/prompt/model, an ISO time for `created`;
   * null when it has none (it sorts last). Ignored when `valueInRow`.
   */
  value: number | string | null;
  /** The value is the row's current one, read by id (text too long to carry). */
  valueInRow: boolean;
  id: string;
  /** The page number the cursor leads to (for "page N of M"; the rows are found by the position alone). */
  page: number;
}

const CURSOR_VERSION = 1;
/** Text values up to this many characters ride in the cursor; longer ones are read from the row. */
const INLINE_TEXT_LIMIT = 200;
const MAX_CURSOR_LENGTH = 2_048;

const wireSchema = z
  .strictObject({
    v: z.literal(CURSOR_VERSION),
    s: z.string().min(1).max(100),
    d: z.enum(["asc", "desc"]),
    t: z.enum(["a", "b"]),
    k: z.union([z.number().finite(), z.string().max(INLINE_TEXT_LIMIT).refine(noNulBytes), z.null()]).optional(),
    r: z.literal(1).optional(),
    i: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    p: z.number().int().min(1).max(100_000_000),
  })
  .refine(
    (wire) => (wire.k === undefined) !== (wire.r === undefined),
    "a cursor has either a value or a row to read it from",
  );

export function encodeVideoListCursor(cursor: Omit<VideoListCursor, "valueInRow">): string {
  const inRow = typeof cursor.value === "string" && cursor.value.length > INLINE_TEXT_LIMIT;
  const wire: z.input<typeof wireSchema> = {
    v: CURSOR_VERSION,
    s: cursor.sort,
    d: cursor.dir,
    t: cursor.toward === "after" ? "a" : "b",
    ...(inRow ? { r: 1 as const } : { k: cursor.value }),
    i: cursor.id,
    p: cursor.page,
  };
  return Buffer.from(JSON.stringify(wire), "utf8").toString("base64url");
}

/** A cursor from its wire form; null when it is not one this API made. */
export function decodeVideoListCursor(text: string): VideoListCursor | null {
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const wire = wireSchema.safeParse(decoded);
  if (!wire.success) return null;
  const { s, d, t, k, r, i, p } = wire.data;
  return {
    sort: s,
    dir: d,
    toward: t === "a" ? "after" : "before",
    value: k ?? null,
    valueInRow: r === 1,
    id: i,
    page: p,
  };
}

/**
 * The `cursor` query parameter: an opaque token from a previous answer's `nextCursor` / `prevCursor`.
 * It stays text in the parsed query (the filter's values are all text or numbers); the list decodes
 * it again with `decodeVideoListCursor`.
 */
export const videoListCursorSchema = z
  .string()
  .refine((text) => decodeVideoListCursor(text) !== null, "is not a cursor from this API");

/** What a sort's values are: a metric's number, text that every video has (path), text a video may lack (prompt, model), a time. */
export type SortValueKind = "number" | "text" | "optional-text" | "time";

/**
 * Checks a decoded cursor against the list it is used on: it must come from a list with the same
 * sort and direction (a position in one order means nothing in another), and carry a value of the
 * sort's kind. A mismatch is a ValidationError naming `cursor`.
 */
export function checkCursorFits(cursor: VideoListCursor, sort: string, dir: "asc" | "desc", kind: SortValueKind): void {
  if (cursor.sort !== sort || cursor.dir !== dir) {
    throw new ValidationError(
      `cursor: it belongs to the list sorted by ${cursor.sort} ${cursor.dir}, not ${sort} ${dir}; start again without a cursor.`,
    );
  }
  const value = cursor.value;
  if (cursor.valueInRow) {
    if (kind !== "text" && kind !== "optional-text") throw new ValidationError("cursor: is not a cursor from this API");
    return;
  }
  const fits = {
    number: value === null || typeof value === "number",
    text: typeof value === "string",
    "optional-text": value === null || typeof value === "string",
    time:
      typeof value === "string" &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
      Number.isFinite(Date.parse(value)),
  }[kind];
  if (!fits) throw new ValidationError("cursor: is not a cursor from this API");
}
