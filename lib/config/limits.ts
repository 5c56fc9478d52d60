/** Largest video accepted, in bytes (MAX_UPLOAD_BYTES; default 2 GiB). */
export function maxUploadBytes(): number {
  const fromEnv = Number(process.env.MAX_UPLOAD_BYTES);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 2 * 1024 ** 3;
}

/** Upload chunk size the browser uses; the server accepts any chunk up to 4× this. */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;

/** A frame set's parts together may not exceed this (frames are resized JPEGs). */
export const MAX_FRAME_SET_BYTES = 512 * 1024 * 1024;
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
