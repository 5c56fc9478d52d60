/**
 * How a honeypot's broken copy of video A is drawn in place of video B, the same way for every reviewer of the pair:
 * "frozen" holds A's first frame, "shuffled" jumps to a random time every few frames, "corrupted" draws A's frames
 * with visible block noise. The randomness is seeded by the pair id, so a reload shows the same breakage.
 */

/** A 32-bit hash of a text (FNV-1a), the seed of the pair's breakage. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** "shuffled" jumps this often (in frames of the leader). */
export const SHUFFLE_EVERY_FRAMES = 4;

/** Draws `video`'s current frame on `canvas` with blocks of noise over about a fifth of it. */
export function drawCorrupted(canvas: HTMLCanvasElement, video: HTMLVideoElement, random: () => number): void {
  const context = canvas.getContext("2d");
  if (!context || video.videoWidth === 0) return;
  if (canvas.width !== video.videoWidth) canvas.width = video.videoWidth;
  if (canvas.height !== video.videoHeight) canvas.height = video.videoHeight;
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  const block = Math.max(8, Math.round(canvas.width / 24));
  const blocks = Math.round(((canvas.width / block) * (canvas.height / block)) / 5);
  for (let i = 0; i < blocks; i++) {
    const x = Math.floor((random() * canvas.width) / block) * block;
    const y = Math.floor((random() * canvas.height) / block) * block;
    const grey = Math.floor(random() * 256);
    context.fillStyle = `rgb(${grey}, ${Math.floor(random() * 256)}, ${255 - grey})`;
    context.fillRect(x, y, block, block);
  }
}
