/**
 * The timeline's calls to the span routes: the video's spans and frame times, and marking, changing and withdrawing
 * the caller's own spans at the version they last read. A stale version comes back as a SpanConflict carrying the
 * span as it is now, so the screen can show it and keep the user's edit to retry.
 */
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import type { FrameTimes } from "@/lib/frames/frame-times";
import type { BoxKeyframe, SpanRecord } from "@/lib/spans/span-types";
import type { FrameTimesPendingAnswer, SpanListAnswer } from "@/lib/spans/span-validation";
import type { ViewerFrame } from "@/components/videos/viewer-frame";

/** The video's frame sets as the detail route gives them (the timeline draws their key frames and clusters). */
export interface VideoFrameSets {
  id: string;
  url: string;
  frameSets: { id: string; mode?: string; frames: ViewerFrame[] }[];
}

const enc = encodeURIComponent;

/** The video's spans of the task; with `runId`, the judge spans of that run only and the frame set it judged. */
export function fetchSpans(videoId: string, task: string, runId?: string | null): Promise<SpanListAnswer> {
  return apiFetch<SpanListAnswer>(
    `/api/v1/videos/${enc(videoId)}/spans?task=${enc(task)}${runId ? `&runId=${enc(runId)}` : ""}`,
  );
}

/** A worker has yet to read the video's frame times (the route's 202). */
export class FrameTimesPending extends Error {}

export async function fetchFrameTimes(videoId: string): Promise<FrameTimes> {
  const answer = await apiFetch<FrameTimes | FrameTimesPendingAnswer>(`/api/v1/videos/${enc(videoId)}/frame-times`);
  if ("pending" in answer) throw new FrameTimesPending(answer.message);
  return answer;
}

/** How long the timeline waits for a worker to compute a video's frame times (asked once a second). */
export const FRAME_TIMES_PENDING_TRIES = 120;

/**
 * The video's frame times as the timeline reads them (once). While a worker is still reading them from the file
 * (a 202: the request queued its job) they are asked for again each second, the timeline saying it is reading them;
 * any other failure is shown at once.
 */
export function frameTimesQuery(videoId: string) {
  return {
    queryKey: ["span-editor", "frame-times", videoId],
    queryFn: () => fetchFrameTimes(videoId),
    staleTime: Infinity,
    retry: (failures: number, error: Error) =>
      error instanceof FrameTimesPending && failures < FRAME_TIMES_PENDING_TRIES,
    retryDelay: 1000,
  };
}

export function fetchVideoFrameSets(videoId: string): Promise<VideoFrameSets> {
  return apiFetch<VideoFrameSets>(`/api/v1/videos/${enc(videoId)}`);
}

export interface NewSpanBody {
  task: string;
  label: string;
  itemId: string;
  startFrame: number;
  endFrame: number;
  boxes: BoxKeyframe[];
  note: string;
  queueId?: string;
}

export function createSpan(videoId: string, body: NewSpanBody): Promise<SpanRecord> {
  const { task, label, itemId, startFrame, endFrame, boxes, note, queueId } = body;
  return postJson<SpanRecord>(`/api/v1/videos/${enc(videoId)}/spans`, {
    task,
    label,
    itemId,
    startFrame,
    endFrame,
    boxes,
    note,
    ...(queueId ? { queueId } : {}),
  });
}

export interface SpanChange {
  label?: string;
  startFrame?: number;
  endFrame?: number;
  boxes?: BoxKeyframe[];
  note?: string;
}

/** The fields a change may carry, and only those (the route is strict: any other key is a 400). */
function changeBody(change: SpanChange): SpanChange {
  const { label, startFrame, endFrame, boxes, note } = change;
  return { label, startFrame, endFrame, boxes, note };
}

export function updateSpan(spanId: string, change: SpanChange, expectedVersion: number): Promise<SpanRecord> {
  return apiFetch<SpanRecord>(`/api/v1/spans/${enc(spanId)}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...changeBody(change), expectedVersion }),
  });
}

export function withdrawSpan(spanId: string, expectedVersion: number): Promise<SpanRecord> {
  return apiFetch<SpanRecord>(`/api/v1/spans/${enc(spanId)}`, {
    method: "DELETE",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ expectedVersion }),
  });
}

/** The span as it is now, when a save named an older version (a 409); null for any other failure. */
export function conflictCurrent(error: unknown): SpanRecord | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const details = (error.body as { error?: { details?: { current?: SpanRecord } } } | null)?.error?.details;
  return details?.current ?? null;
}

/**
 * The span editor's query key of a video's spans (its lists carry when they were asked for, so the key is its own):
 * a host invalidates it to have the editor read the spans again (say after an import or an adjudication).
 */
export function spanEditorSpansKey(videoId: string, task?: string): string[] {
  return task === undefined ? ["span-editor", "spans", videoId] : ["span-editor", "spans", videoId, task];
}
