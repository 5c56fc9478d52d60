import type { PromptEntry, PromptIndex } from "./prompt-lists";
import { matchDimension } from "./vbench-dimensions";

export const VIDEO_EXTENSIONS = [".mp4", ".webm", ".mov", ".m4v", ".mkv"] as const;

/** Most file systems cap a name at 255 bytes; a longer one cannot be a file someone really has. */
export const MAX_FILE_NAME_BYTES = 255;
export const MAX_PATH_BYTES = 1024;

/** `<Dimension>/<prompt>-<i>.mp4` (VBench layout A), `<prompt>-<i>.mp4` without a dimension folder (layout B), or anything else. */
export type VideoPathLayout = "vbench-dimension" | "vbench-flat" | "other";

export interface ParsedVideoPath {
  fileName: string;
  /**
   * The full prompt when the prompt index knows the name, else the prompt part of a VBench name
   * `<prompt>-<index>`; null when the name gives no prompt (see `readPrompt`).
   */
  prompt: string | null;
  /** The prompt part of the file name as written (VBench truncates it to 180 characters); null with no prompt. */
  promptTruncated: string | null;
  sampleIndex: number | null;
  dimensions: string[];
  model: string | null;
  matchedPromptList: boolean;
  /** The matched prompt's auxiliary info (VBench-2.0's) of the video's dimensions; {} when none. */
  auxiliaryInfo: Record<string, unknown>;
  layout: VideoPathLayout;
}

/** `unsafe_path` should stop an import; `not_video` is usually a stray file (.DS_Store, notes.txt) to skip. */
export type VideoPathRejection = "unsafe_path" | "not_video";

export type ParseVideoPathResult =
  { ok: true; value: ParsedVideoPath } | { ok: false; error: string; reason: VideoPathRejection };

export interface ParseVideoPathOptions {
  /** The generator model chosen in the import form; wins over a model folder in the path. */
  model?: string;
  promptIndex?: PromptIndex;
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// Also C1 controls and bidirectional overrides, which can make a quoted name display misleadingly.
const UNDISPLAYABLE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const DISPLAY_NAME_MAX_LENGTH = 120;
/** Sample indices are small; a longer digit run (a year, a timestamp) is part of the prompt. */
const SAMPLE_INDEX_SUFFIX = /^(.*)-(\d{1,6})$/s;
/** A prompt describes a scene in words; a name part with no letter at all (`12`, `2024-05`) is a number or a date. */
const HAS_LETTER = /\p{L}/u;

/** A name made safe to quote in a message: invisible and direction-changing characters shown as �, long names shortened. */
export function sanitizeDisplayName(name: string): string {
  const visible = name.replace(UNDISPLAYABLE_CHARACTERS, "\uFFFD");
  return visible.length > DISPLAY_NAME_MAX_LENGTH ? `${visible.slice(0, DISPLAY_NAME_MAX_LENGTH - 1)}…` : visible;
}

/** UTF-8 length without allocating an encoded copy (lone surrogates count as the 3-byte U+FFFD they become). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function codePointLabel(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

type Rejection = { ok: false; error: string; reason: VideoPathRejection };

function unsafe(error: string): Rejection {
  return { ok: false, error, reason: "unsafe_path" };
}

/** The path's segments, or why it cannot be a plain relative path to a file. */
function splitSafePath(relativePath: string): { ok: true; segments: string[] } | Rejection {
  if (relativePath === "") return unsafe("The file path is empty.");
  const shown = `"${sanitizeDisplayName(relativePath)}"`;
  const control = CONTROL_CHARACTER.exec(relativePath);
  if (control)
    return unsafe(
      `${shown} contains a control character (${codePointLabel(control[0])}), which file names may not contain.`,
    );
  const pathBytes = utf8ByteLength(relativePath);
  if (pathBytes > MAX_PATH_BYTES)
    return unsafe(`${shown} is ${pathBytes} bytes long; a path may be at most ${MAX_PATH_BYTES} bytes (UTF-8).`);
  const segments = relativePath.split(/[\\/]/);
  for (const segment of segments) {
    if (segment === "")
      return unsafe(`${shown} has an empty folder or file name (a leading, trailing or doubled slash).`);
    if (segment === ".." || segment === ".")
      return unsafe(`${shown} contains a "${segment}" segment; only plain folder and file names are allowed.`);
  }
  const fileName = segments[segments.length - 1]!;
  const nameBytes = utf8ByteLength(fileName);
  if (nameBytes > MAX_FILE_NAME_BYTES) {
    return unsafe(
      `The file name "${sanitizeDisplayName(fileName)}" is ${nameBytes} bytes long; a file name may be at most ${MAX_FILE_NAME_BYTES} bytes (UTF-8).`,
    );
  }
  return { ok: true, segments };
}

function videoExtension(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  return VIDEO_EXTENSIONS.find((extension) => lower.endsWith(extension)) ?? null;
}

function notVideo(error: string): Rejection {
  return { ok: false, error, reason: "not_video" };
}

interface PromptReading {
  promptTruncated: string | null;
  sampleIndex: number | null;
  match: PromptEntry | null;
}

function resolveEntry(
  index: PromptIndex | undefined,
  stem: string,
  folderDimension: string | null,
): PromptEntry | null {
  if (!index) return null;
  const candidates = index.candidates(stem);
  if (candidates.length === 1) return candidates[0]!;
  // Prompts sharing their first 180 characters: the dimension folder may still tell them apart.
  if (candidates.length > 1 && folderDimension) {
    const inFolder = candidates.filter((entry) => entry.dimensions.includes(folderDimension));
    if (inFolder.length === 1) return inFolder[0]!;
  }
  return null;
}

/**
 * Splits `<prompt>-<index>` into prompt and sample index. A prompt may itself end in `-<digits>`,
 * so when an index is given the reading that names a known prompt wins: first "prompt + index
 * suffix", then "the whole stem is the prompt". With no match, only a VBench-shaped name gives a
 * prompt: `<prompt>-<index>` (index 1–6 digits) whose prompt part has at least one letter. Any
 * other name (`12.mp4`, `my clip.mp4`, `2024-05-01.mp4`, `render-1700000.mp4`) gives no prompt and
 * no sample index: a file name is not a prompt, and judging a video against one scores nonsense.
 */
function readPrompt(stem: string, index: PromptIndex | undefined, folderDimension: string | null): PromptReading {
  const suffix = SAMPLE_INDEX_SUFFIX.exec(stem);
  const withIndex = suffix && suffix[1] !== "" ? { promptTruncated: suffix[1]!, sampleIndex: Number(suffix[2]) } : null;
  if (withIndex) {
    const match = resolveEntry(index, withIndex.promptTruncated, folderDimension);
    if (match) return { ...withIndex, match };
  }
  const wholeStemMatch = resolveEntry(index, stem, folderDimension);
  if (wholeStemMatch) return { promptTruncated: stem, sampleIndex: null, match: wholeStemMatch };
  if (withIndex && HAS_LETTER.test(withIndex.promptTruncated)) return { ...withIndex, match: null };
  return { promptTruncated: null, sampleIndex: null, match: null };
}

/**
 * The folder that names the generator. VBench-2.0 saves a model's samples as `<save_path>/<Dimension>/<prompt>-<i>.mp4`,
 * so a folder of several models' samples reads `samples/<model>/<Dimension>/…`: the generator is the folder right above
 * the dimension folder, not the top one. Without a folder above the dimension folder, the nearest other folder below it
 * (`<Dimension>/<model>/…`); without a dimension folder, the folder holding the file (`samples/<model>/<prompt>-<i>.mp4`).
 */
function generatorFolder(folders: readonly string[], folderDimensions: readonly (string | null)[]): string | null {
  const nearestOther = (from: number, to: number) => {
    for (let position = to - 1; position >= from; position -= 1)
      if (folderDimensions[position] === null) return folders[position]!;
    return null;
  };
  const dimensionAt = folderDimensions.findLastIndex((dimension) => dimension !== null);
  if (dimensionAt < 0) return nearestOther(0, folders.length);
  if (dimensionAt > 0 && folderDimensions[dimensionAt - 1] === null) return folders[dimensionAt - 1]!;
  return nearestOther(dimensionAt + 1, folders.length);
}

/**
 * What an imported video is, from its path relative to the chosen folder (`/` or `\` separated):
 * a dimension folder gives the dimension, the folder above it names the generator model (see `generatorFolder`), and
 * the VBench file name `<prompt[:180]>-<index>.<ext>` gives the prompt and sample index. With a
 * prompt index, the full prompt is restored and, without a dimension folder, its dimensions added.
 * Any other name gives no prompt (null), never the file name standing in for one.
 */
export function parseVideoPath(relativePath: string, options: ParseVideoPathOptions = {}): ParseVideoPathResult {
  const split = splitSafePath(relativePath);
  if (!split.ok) return split;
  const { segments } = split;
  const fileName = segments[segments.length - 1]!;
  const folders = segments.slice(0, -1);
  const shownName = `"${sanitizeDisplayName(fileName)}"`;

  if (folders.includes("__MACOSX") || fileName.startsWith("._")) {
    return notVideo(`${shownName} is macOS resource-fork metadata, not a video.`);
  }
  const extension = videoExtension(fileName);
  if (!extension) return notVideo(`${shownName} is not a video file name (expected ${VIDEO_EXTENSIONS.join(", ")}).`);
  const stem = fileName.slice(0, -extension.length);
  if (stem.trim() === "") return notVideo(`${shownName} has no name before its extension.`);

  const folderDimensions = folders.map(matchDimension);
  // The folder nearest the file is the one the VBench sampler created.
  const folderDimension = folderDimensions.filter((dimension) => dimension !== null).pop() ?? null;
  const model = options.model?.trim() || generatorFolder(folders, folderDimensions);

  const reading = readPrompt(stem, options.promptIndex, folderDimension);
  const dimensions = folderDimension ? [folderDimension] : reading.match ? [...reading.match.dimensions] : [];
  const layout: VideoPathLayout = folderDimension
    ? "vbench-dimension"
    : reading.sampleIndex !== null
      ? "vbench-flat"
      : "other";

  return {
    ok: true,
    value: {
      fileName,
      prompt: reading.match?.prompt ?? reading.promptTruncated,
      promptTruncated: reading.promptTruncated,
      sampleIndex: reading.sampleIndex,
      dimensions,
      model,
      matchedPromptList: reading.match !== null,
      auxiliaryInfo: Object.fromEntries(
        Object.entries(reading.match?.auxiliaryInfo ?? {}).filter(([dimension]) => dimensions.includes(dimension)),
      ),
      layout,
    },
  };
}
