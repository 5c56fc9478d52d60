// Worker-side helpers that turn low-level failures into ExtractionError codes with human messages.
import { ExtractionError } from "./types";

/** Signature-level guess at what a file is, from its first bytes. */
export type Sniffed =
  | { kind: "video-container"; name: string }
  | { kind: "audio"; name: string }
  | { kind: "image"; name: string }
  | { kind: "text" }
  | { kind: "unknown" };

const ISOBMFF_BOXES = new Set(["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "styp", "sidx", "moof"]);

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let out = "";
  for (let i = start; i < start + length && i < bytes.length; i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

export async function sniff(file: Blob): Promise<Sniffed> {
  const bytes = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  if (bytes.length === 0) return { kind: "unknown" };
  const b = (i: number) => bytes[i] ?? -1;
  if (bytes.length >= 8 && ISOBMFF_BOXES.has(ascii(bytes, 4, 4))) {
    const brand = ascii(bytes, 8, 4);
    if (ascii(bytes, 4, 4) === "ftyp" && /^(M4A |M4B |M4P |F4A )/.test(brand)) return { kind: "audio", name: "m4a" };
    return { kind: "video-container", name: brand === "qt  " ? "mov" : "mp4" };
  }
  if (b(0) === 0x1a && b(1) === 0x45 && b(2) === 0xdf && b(3) === 0xa3)
    return { kind: "video-container", name: "matroska" };
  if (ascii(bytes, 0, 4) === "RIFF") {
    const form = ascii(bytes, 8, 4);
    if (form === "AVI ") return { kind: "video-container", name: "avi" };
    if (form === "WAVE") return { kind: "audio", name: "wav" };
    if (form === "WEBP") return { kind: "image", name: "webp" };
  }
  if (ascii(bytes, 0, 4) === "OggS") return { kind: "video-container", name: "ogg" };
  if (ascii(bytes, 0, 3) === "FLV") return { kind: "video-container", name: "flv" };
  if (b(0) === 0x30 && b(1) === 0x26 && b(2) === 0xb2 && b(3) === 0x75) return { kind: "video-container", name: "asf" };
  if (b(0) === 0x00 && b(1) === 0x00 && b(2) === 0x01 && (b(3) === 0xba || b(3) === 0xb3))
    return { kind: "video-container", name: "mpeg" };
  if (b(0) === 0x47 && (bytes.length < 189 || b(188) === 0x47)) return { kind: "video-container", name: "mpegts" };
  if (ascii(bytes, 0, 4) === "fLaC") return { kind: "audio", name: "flac" };
  if (ascii(bytes, 0, 3) === "ID3" || (b(0) === 0xff && (b(1) & 0xe0) === 0xe0))
    return { kind: "audio", name: "mp3/aac" };
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return { kind: "image", name: "jpeg" };
  if (b(0) === 0x89 && ascii(bytes, 1, 3) === "PNG") return { kind: "image", name: "png" };
  if (ascii(bytes, 0, 4) === "GIF8") return { kind: "image", name: "gif" };
  if (looksLikeText(bytes)) return { kind: "text" };
  return { kind: "unknown" };
}

/** True when the bytes decode as UTF-8 with no NULs and almost only printable characters. */
function looksLikeText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    // A multi-byte character cut at the 4 KiB boundary must not make this fail: drop up to 3 trailing bytes.
    let end = bytes.length;
    if (end === 4096) while (end > bytes.length - 4 && ((bytes[end - 1] ?? 0) & 0xc0) === 0x80) end--;
    if (end === 4096 && ((bytes[end - 1] ?? 0) & 0xc0) === 0xc0) end--;
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
  } catch {
    return false;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) control++;
  }
  return control <= text.length * 0.01;
}

export function emptyFileError(): ExtractionError {
  return new ExtractionError(
    "corrupt",
    "The file is damaged or truncated: it is empty (0 bytes). The upload or copy was probably interrupted.",
  );
}

export function notAVideoError(sniffed: Sniffed, detail?: string): ExtractionError {
  const what =
    sniffed.kind === "text"
      ? "it contains text, not video data"
      : sniffed.kind === "image"
        ? `it is a still image (${sniffed.name}), not a video`
        : "its contents are not in any video format we can read";
  return new ExtractionError("not_a_video", `This file is not a video: ${what}${detail ? ` (${detail})` : ""}.`);
}

export function audioOnlyError(): ExtractionError {
  return new ExtractionError("audio_only", "This file only contains audio; it has no video track to take frames from.");
}

export function corruptError(detail: string): ExtractionError {
  return new ExtractionError("corrupt", `The file is damaged or truncated: ${detail}.`);
}

export function unsupportedCodecError(codec: string | null): ExtractionError {
  return new ExtractionError(
    "unsupported_codec",
    `The video codec${codec ? ` (${codec})` : ""} is not supported by this browser or by the built-in decoder. Convert the video to H.264 MP4 and try again.`,
  );
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

export function isExtractionError(error: unknown): error is ExtractionError {
  return error instanceof ExtractionError;
}
