/**
 * What a judge is shown as video B of a honeypot pair (Pair.honeypot {kind}): a visibly broken copy of video A's
 * frames, made when the request is built, never stored. Frozen: A's first frame repeated; shuffled: A's frames in a
 * seeded random order (the pair's id is the seed, so both orders and every retry show the same copy); corrupted: A's
 * frames with blocks of noise over a quarter of each. The expected verdict is A.
 */
import { createHash } from "node:crypto";
import jpeg from "jpeg-js";
import { z } from "zod";
import type { FrameRef } from "../../task-modules/pipeline-types";

export const HONEYPOT_KINDS = ["frozen", "shuffled", "corrupted"] as const;
export type HoneypotKind = (typeof HONEYPOT_KINDS)[number];
const honeypotSchema = z.object({ kind: z.enum(HONEYPOT_KINDS) });

/** A frame as a pairwise request shows it: stored as it is, or damaged on the way (a corrupted honeypot's). */
export interface ShownFrame extends FrameRef {
  damaged: boolean;
}

/** The honeypot kind a pair's stored `honeypot` names; null for an ordinary pair (or a value not understood). */
export function honeypotKindOf(stored: unknown): HoneypotKind | null {
  const parsed = honeypotSchema.safeParse(stored);
  return parsed.success ? parsed.data.kind : null;
}

/** Video B's frames of a honeypot pair of this kind, from video A's (in time order). */
export function honeypotFrames(kind: HoneypotKind, aFrames: readonly FrameRef[], seed: string): ShownFrame[] {
  switch (kind) {
    case "frozen":
      return aFrames.length ? aFrames.map(() => ({ ...aFrames[0]!, damaged: false })) : [];
    case "shuffled":
      return seededShuffle(aFrames, seed).map((frame) => ({ ...frame, damaged: false }));
    case "corrupted":
      return aFrames.map((frame) => ({ ...frame, damaged: true }));
    default: {
      const never: never = kind;
      throw new Error(`unknown honeypot kind ${String(never)}`);
    }
  }
}

/**
 * A seeded Fisher–Yates shuffle that never leaves two or more frames in their order (a shuffle that kept time order
 * would not be broken): when it does, the first two are exchanged.
 */
function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  let state = createHash("sha256").update(seed).digest().readUInt32BE(0) || 1;
  const next = () => {
    // xorshift32: enough to scramble a few frames reproducibly.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  if (out.length > 1 && out.every((item, i) => item === items[i])) [out[0], out[1]] = [out[1]!, out[0]!];
  return out;
}

/** The corrupted copy's hash of a frame: what the response cache key names instead of the stored frame's. */
export function damagedFrameHash(sha256: string): string {
  return `corrupted:${sha256}`;
}

/**
 * A JPEG with visible damage: an 8 × 8 grid of blocks, a quarter of them (chosen by the frame's hash) filled with
 * high-contrast noise. Deterministic for the same bytes.
 */
export function corruptJpeg(bytes: Buffer): Buffer {
  const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 64 });
  const seed = createHash("sha256").update(bytes).digest();
  const [bw, bh] = [Math.ceil(image.width / 8), Math.ceil(image.height / 8)];
  for (let block = 0; block < 64; block++) {
    // About a quarter of the blocks, and always one near the centre, so no frame comes out unharmed.
    if ((seed[block % seed.length]! + block) % 4 !== 0 && block !== 27) continue;
    const [x0, y0] = [(block % 8) * bw, Math.floor(block / 8) * bh];
    for (let y = y0; y < Math.min(y0 + bh, image.height); y++) {
      for (let x = x0; x < Math.min(x0 + bw, image.width); x++) {
        const at = (y * image.width + x) * 4;
        const on = ((x >> 2) + (y >> 2) + block) % 2 === 0 ? 255 : 0;
        image.data[at] = on;
        image.data[at + 1] = 255 - on;
        image.data[at + 2] = on;
      }
    }
  }
  return Buffer.from(jpeg.encode({ data: image.data, width: image.width, height: image.height }, 90).data);
}
