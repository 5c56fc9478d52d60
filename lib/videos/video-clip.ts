import type { ClipRef } from "../task-modules/pipeline-types";

/** What a video row gives its file as a `video-file` request sends it (ClipRef): select it with the row. */
export const VIDEO_CLIP_SELECT = {
  storageKey: true,
  sha256: true,
  sizeBytes: true,
  contentType: true,
  durationS: true,
} as const;

/** The video's file as a ClipRef (its size, a BigInt in the row, as a number). */
export function clipRefOf(video: {
  storageKey: string;
  sha256: string;
  sizeBytes: bigint;
  contentType: string;
  durationS: number | null;
}): ClipRef {
  return {
    storageKey: video.storageKey,
    sha256: video.sha256,
    sizeBytes: Number(video.sizeBytes),
    contentType: video.contentType,
    durationS: video.durationS,
  };
}
