import { createHash } from "node:crypto";

/**
 * The response cache key: everything that determines an answer. Same model, template, rendered
 * text, frames and generation parameters → the cached answer is reused and no call is made.
 */
export function responseCacheKey(parts: {
  model: string;
  templateHash: string;
  text: string;
  frameSha256s: string[];
  temperature: number | null;
  imageDetail: string;
  responseFormat: unknown;
  repairOf?: string | null;
  /** A step's cacheSalt: left out of the key when absent, so keys made before salts existed still match. */
  salt?: string | null;
  /** True when the prompt's first paragraph went in the system role: a different request from one user message with the same text. */
  systemRole?: boolean;
  /**
   * How the request showed the video (lib/judge/input-modes.ts): the same frames as images or as one video part are
   * different calls. Left out for `images`, so keys made before input modes existed still match.
   */
  inputMode?: string;
  /** The video part's timing or the clip and its sampling (lib/judge/engine/video-media.ts videoCachePart). */
  video?: unknown;
}): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        parts.model,
        parts.templateHash,
        parts.text,
        parts.frameSha256s,
        parts.temperature,
        parts.imageDetail,
        parts.responseFormat ?? null,
        parts.repairOf ?? null,
        ...(parts.salt ? [parts.salt] : []),
        ...(parts.systemRole ? ["system-role"] : []),
        ...(parts.inputMode && parts.inputMode !== "images" ? [`mode:${parts.inputMode}`, parts.video ?? null] : []),
      ]),
    )
    .digest("hex");
}
