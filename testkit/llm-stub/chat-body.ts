import { hash, randomBytes } from "node:crypto";

/**
 * TEST TOOL. Reads a chat request's JSON body without turning its images into one large string. The stub shares
 * the benchmark's two cores with the worker, and a VBench-2.0 call carries 64 frames (some 250 KB): decoding such
 * a body into one string and parsing it cost the stub some 2 ms a call here, mostly the page faults of the fresh
 * memory, against well under a millisecond for a call with a few frames. So each `"url": "data:…"` value is cut
 * out of the bytes (a short reference takes its place), hashed and decoded on its own, and the rest, a few
 * kilobytes, is parsed; `imageOf` gives each reference's URL and hash, so what the rules see is unchanged.
 */
export interface ParsedChatBody {
  /** The parsed body; each data: URL cut out is a reference in it, which `imageOf` resolves. */
  body: unknown;
  /** The image behind a URL of the parsed body: its URL as sent, and the hash the rules use. */
  imageOf(url: string): { url: string; hash: string };
}

const URL_KEY = Buffer.from('"url"', "utf8");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
// A value no client sends: this process's own random token.
const REFERENCE = `stub-image-${randomBytes(6).toString("hex")}-`;

/** Reused for every body: the chunks are copied into memory already touched instead of a fresh buffer. */
let scratch = Buffer.alloc(0);

/** The image hash the rules see: the start of the SHA-256 of the URL as sent. */
export function imageHashOf(url: string | Buffer): string {
  return hash("sha256", url).slice(0, 16);
}

/**
 * The hashes of images cut out lately, by a fingerprint (the length, bytes sampled across the value, its end), each
 * entry with its bytes. VBench-2.0 asks several questions about the same 64 frames of a video, and hashing a
 * call's 350 KB of data URLs took the stub about 0.4 ms a call here; a repeated image is found by its fingerprint
 * and confirmed byte for byte (a memcmp, some 30 times cheaper), so two images never share a hash by mistake.
 */
const recentImages = new Map<string, { bytes: Buffer; hash: string }[]>();
const RECENT_IMAGES_LIMIT = 4096;
const FINGERPRINT_SAMPLES = 32;
const IMAGES_PER_FINGERPRINT = 4;

const fingerprint = Buffer.alloc(FINGERPRINT_SAMPLES * 4);

function fingerprintOf(value: Buffer): string {
  if (value.length < fingerprint.length) return value.toString("latin1");
  const step = Math.floor((value.length - 4) / (FINGERPRINT_SAMPLES - 1));
  for (let i = 0; i < FINGERPRINT_SAMPLES; i++) fingerprint.writeUInt32LE(value.readUInt32LE(i * step), i * 4);
  // And the end, where the tests' generated frames differ (one JPEG, each copy with its own suffix).
  return `${value.length}:${fingerprint.toString("latin1")}${value.toString("latin1", value.length - 48)}`;
}

/** imageHashOf for a data URL cut out of a body, remembered for the next call that sends the same bytes. */
export function cutImageHash(value: Buffer): string {
  const key = fingerprintOf(value);
  const entries = recentImages.get(key);
  const seen = entries?.find((entry) => entry.bytes.equals(value));
  if (seen) return seen.hash;
  const entry = { bytes: Buffer.from(value), hash: imageHashOf(value) };
  if (entries) {
    // Images alike where the fingerprint looks (generated test frames differing in a few bytes) share a key:
    // keep the latest few, so a look-up never compares more than that many.
    entries.push(entry);
    if (entries.length > IMAGES_PER_FINGERPRINT) entries.shift();
  } else {
    if (recentImages.size >= RECENT_IMAGES_LIMIT) recentImages.delete(recentImages.keys().next().value!);
    recentImages.set(key, [entry]);
  }
  return entry.hash;
}

export function parseChatBody(chunks: readonly Buffer[]): ParsedChatBody {
  const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
  if (scratch.length < size) scratch = Buffer.alloc(Math.max(size, 2 * scratch.length));
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(scratch, offset);
  const raw = scratch.subarray(0, size);

  const kept: Buffer[] = [];
  // The images cut out, by reference number (never a map keyed by the URLs: hashing long strings as keys is slow).
  const images: { url: string; hash: string }[] = [];
  let from = 0;
  for (let key = raw.indexOf(URL_KEY, 0); key !== -1; key = raw.indexOf(URL_KEY, key + URL_KEY.length)) {
    // `"url"`, optional spaces, `:`, optional spaces, then a string starting with `data:` and free of escapes.
    let at = key + URL_KEY.length;
    while (raw[at] === 0x20) at++;
    if (raw[at] !== 0x3a) continue;
    at++;
    while (raw[at] === 0x20) at++;
    if (raw[at] !== QUOTE || raw.toString("latin1", at + 1, at + 6) !== "data:") continue;
    const end = raw.indexOf(QUOTE, at + 1);
    if (end === -1) break;
    const value = raw.subarray(at + 1, end);
    if (value.includes(BACKSLASH)) continue;
    kept.push(raw.subarray(from, at + 1), Buffer.from(`${REFERENCE}${images.length}`, "latin1"));
    images.push({ url: value.toString("utf8"), hash: cutImageHash(value) });
    from = end;
    key = end - URL_KEY.length;
  }
  kept.push(raw.subarray(from));
  const body: unknown = JSON.parse(Buffer.concat(kept).toString("utf8"));
  return {
    body,
    imageOf(url) {
      const image = url.startsWith(REFERENCE) ? images[Number(url.slice(REFERENCE.length))] : undefined;
      return image ?? { url, hash: imageHashOf(url) };
    },
  };
}
