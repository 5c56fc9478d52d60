/**
 * The generic item importer: a JSONL, JSON-array or CSV file of items whose fields a declaration names (a
 * rubric task judging `{video, text, reference}` items). Each record names its video by path or file name,
 * matched to one project video by file name as the caption and question importers do; `id` is optional (the
 * record's line otherwise). All or nothing: every record that cannot be read is listed with its line (an
 * unknown video, a missing required field, a field that is not text) and nothing is stored then.
 */
import { parseCsvTable } from "../import/csv";
import {
  jsonArrayRecords,
  jsonlRecords,
  type RawRecord,
  type RecordError,
  recordFileFormat,
} from "../import/json-records";
import { videoFileNameMatcher } from "../import/video-file-names";
import { ItemFileError, nulByteErrors } from "./item-set-import";
import type { ItemFile, ItemSetImportOptions, ItemSetKind, NewItem } from "../task-modules/item-set-kind";

/** A field the items carry, as a declaration names it. */
export interface ItemFieldDeclaration {
  id: string;
  label: string;
  required: boolean;
}

/** What a generic item stores: its declared fields (absent optional ones as ""), its video as the file named it, and its line. */
export interface GenericItemPayload {
  video: string;
  fields: Record<string, string>;
  line: number;
}

interface GenericItemSummary {
  items: { count: number; videos: number };
  unmatched: string[];
}

const MAX_FIELD_CHARS = 100_000;

function decode(bytes: Uint8Array): { ok: true; text: string } | { ok: false; error: RecordError } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch {
    return { ok: false, error: { line: null, message: "the file is not UTF-8 text" } };
  }
}

function csvRecords(text: string, errors: RecordError[]): RawRecord[] {
  const table = parseCsvTable(text);
  if (!table.ok) {
    const match = /^line (\d+): (.*)$/s.exec(table.error);
    errors.push(match ? { line: Number(match[1]), message: match[2]! } : { line: null, message: table.error });
    return [];
  }
  return table.rows.map((row) => ({
    line: row.line,
    value: Object.fromEntries([...row.values].map(([column, cell]) => [column.toLowerCase(), cell])),
  }));
}

/** The text of a field's value: strings as they are, numbers and booleans written out; anything else is refused. */
function fieldText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

export type GenericItemsResult =
  | { ok: true; items: { externalId: string; videoFileName: string; payload: GenericItemPayload }[] }
  | { ok: false; errors: RecordError[]; unmatchedVideos: string[] };

/** Reads a file of items with `fields` against the project's video file names: every item, or every problem with its line. */
export function parseGenericItems(
  file: ItemFile,
  fields: readonly ItemFieldDeclaration[],
  projectVideoFileNames: readonly string[],
): GenericItemsResult {
  const decoded = decode(file.bytes);
  if (!decoded.ok) return { ok: false, errors: [decoded.error], unmatchedVideos: [] };
  const text = decoded.text;
  const errors: RecordError[] = [];
  const first = text.trimStart()[0];
  const format = recordFileFormat(file.fileName) ?? (first === "[" ? "json" : first === "{" ? "jsonl" : "csv");
  const records =
    format === "csv"
      ? csvRecords(text, errors)
      : format === "json" && first !== "{"
        ? jsonArrayRecords(text, errors, "item")
        : jsonlRecords(text, errors, "item");
  if (records.length === 0 && errors.length === 0) errors.push({ line: null, message: "the file has no items" });

  const matchVideo = videoFileNameMatcher(projectVideoFileNames);
  const unmatched = new Set<string>();
  const firstLineOfId = new Map<string, number>();
  const items: { externalId: string; videoFileName: string; payload: GenericItemPayload }[] = [];
  for (const record of records) {
    const problems: string[] = [];
    const video = fieldText(record.value.video);
    let videoFileName = "";
    if (video === null || video.trim() === "")
      problems.push('video: each item names its video (path or file name) in a "video" field');
    else {
      const match = matchVideo(video.trim());
      if (match.ok) videoFileName = match.fileName;
      else {
        problems.push(match.message);
        if (match.unmatched) unmatched.add(video.trim());
      }
    }
    const id =
      record.value.id === undefined || record.value.id === "" ? `line-${record.line}` : fieldText(record.value.id);
    if (id === null) problems.push("id: must be text or a number");
    else if (firstLineOfId.has(id))
      problems.push(`id ${JSON.stringify(id)} is used again (first on line ${firstLineOfId.get(id)})`);
    else firstLineOfId.set(id, record.line);
    const values = new Map<string, string>();
    for (const field of fields) {
      // A field id may be `constructor` or `tostring`: only the record's own keys are its cells.
      const raw = Object.hasOwn(record.value, field.id) ? record.value[field.id] : undefined;
      const value = raw === undefined || raw === null ? "" : fieldText(raw);
      if (value === null)
        problems.push(`${field.id}: must be text, not ${Array.isArray(raw) ? "a list" : "an object"}`);
      else if (field.required && value.trim() === "") problems.push(`${field.id}: the ${field.label} is required`);
      else if (value.length > MAX_FIELD_CHARS) problems.push(`${field.id}: at most ${MAX_FIELD_CHARS} characters`);
      else values.set(field.id, value);
    }
    if (problems.length) {
      errors.push(...problems.map((message) => ({ line: record.line, message })));
      continue;
    }
    items.push({
      externalId: id!,
      videoFileName,
      payload: { video: video!.trim(), fields: Object.fromEntries(values), line: record.line },
    });
  }
  errors.push(...nulByteErrors(items.map(({ payload }) => ({ line: payload.line, ...payload.fields }))));
  if (errors.length)
    return { ok: false, errors: errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), unmatchedVideos: [...unmatched] };
  return { ok: true, items };
}

/** How an upload of generic items names its file in messages, and the name a file sent without one gets. */
export const GENERIC_ITEM_FILE = { noun: "item file", defaultFileName: "items.jsonl" } as const;

/**
 * An item set kind for items with declared fields: a declaration (a rubric task) registers one under its own
 * `id`, and its items are stored with `itemKind`.
 */
export function genericItemSetKind(declaration: {
  id: string;
  noun: string;
  itemKind: string;
  fields: readonly ItemFieldDeclaration[];
}): ItemSetKind<ItemSetImportOptions, GenericItemSummary> {
  return {
    id: declaration.id,
    noun: declaration.noun,
    defaultFileName: GENERIC_ITEM_FILE.defaultFileName,
    async plan({ file, options, videos }) {
      const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
      const parsed = parseGenericItems(
        file,
        declaration.fields,
        videos.map((video) => video.relativePath),
      );
      if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
      const items: NewItem[] = parsed.items.map((item) => ({
        videoId: videoIdByPath.get(item.videoFileName)!,
        externalId: item.externalId,
        kind: declaration.itemKind,
        group: "",
        model: null,
        payload: { ...item.payload },
      }));
      return {
        set: {
          name: options.name || file.fileName,
          model: null,
          referenceSetId: null,
          citation: options.citation || null,
        },
        items,
        summary: {
          items: { count: items.length, videos: new Set(items.map((item) => item.videoId)).size },
          unmatched: [],
        },
      };
    },
  };
}
