"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { FrameExtractor } from "@/lib/browser-extraction/frame-extractor";
import { apiFetch } from "@/lib/api-client";
import { extractAndUploadFrameSet } from "./extract-frame-set";
import {
  ExtractionSettings,
  defaultExtractionSettings,
  settingsToParameters,
  type ExtractionSettingsValue,
} from "./extraction-settings";

export interface PendingVideo {
  id: string;
  fileName: string;
  relativePath: string;
  sizeBytes: number;
  /** The longest side a run's planned frame size needs (null or absent: the settings' own). */
  maxSide?: number | null;
  /** Why the set cannot be extracted at a planned size (a quarter of an unknown size). */
  problem?: string;
}

type RowState = { state: "waiting" | "working" | "done" | "error" | "cancelled"; message: string; progress: number };

/**
 * Extracts frames, in this browser, for every video registered without them (e.g. through the API), or,
 * with `uniform`, the uniform frame set of that many frames for the listed videos (item runs need it): at
 * each video's planned size when `atPlannedSize`; `itemsNoun` names the items those videos have ("captions"), empty when every video is listed.
 */
export function PendingExtractionPanel({
  projectId,
  uniform,
}: {
  projectId: string;
  uniform?: { count: number; atPlannedSize?: boolean; itemsNoun: string; videos: PendingVideo[] };
}) {
  const queryClient = useQueryClient();
  // Uniform mode keeps the list it was given, so finished rows stay in view; a reload lists what still lacks the set.
  const [uniformVideos] = useState(uniform?.videos);
  const pending = useQuery({
    queryKey: ["pending-videos", projectId],
    queryFn: () =>
      apiFetch<{ videos: PendingVideo[]; total: number }>(
        `/api/v1/projects/${projectId}/videos?status=pending_extraction&pageSize=500`,
      ),
    enabled: !uniform,
  });
  const [rows, setRows] = useState<Record<string, RowState>>({});
  const [running, setRunning] = useState(false);
  // The videos of the last extraction this visit: its summary counts their rows once it ends.
  const [lastRun, setLastRun] = useState<string[] | null>(null);
  const [settings, setSettings] = useState<ExtractionSettingsValue>(
    uniform ? { ...defaultExtractionSettings, mode: "uniform", count: uniform.count } : defaultExtractionSettings,
  );
  const abort = useRef<AbortController | null>(null);
  const setRow = (id: string, row: RowState) => setRows((current) => ({ ...current, [id]: row }));

  async function run(videos: PendingVideo[]) {
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setLastRun(videos.map((v) => v.id));
    const extractor = new FrameExtractor();
    try {
      for (const video of videos) {
        if (controller.signal.aborted) {
          setRow(video.id, { state: "cancelled", message: "Cancelled.", progress: 0 });
          continue;
        }
        if (video.problem) {
          setRow(video.id, { state: "error", message: `Not extracted: ${video.problem}.`, progress: 0 });
          continue;
        }
        await extractOne(video, extractor, settings, controller.signal, setRow);
      }
    } finally {
      extractor.terminate();
      setRunning(false);
      void refetchAfterWrite(queryClient, ["pending-videos", projectId]);
    }
  }

  const listed = uniformVideos ?? pending.data?.videos ?? [];
  // Extracted in this visit: not offered again (the pending list drops them itself once refetched).
  const videos = listed.filter((v) => rows[v.id]?.state !== "done");
  return (
    <div className="flex flex-col gap-4">
      {uniform ? (
        <p className="text-sm text-slate-600" data-testid="uniform-settings">
          Uniform set of {uniform.count} evenly spaced frames
          {uniform.atPlannedSize
            ? " at each video's planned size (listed per video)."
            : ` (longest side ${settings.maxSide} px).`}
        </p>
      ) : (
        <ExtractionSettings value={settings} onChange={setSettings} />
      )}
      <div className="flex gap-3">
        <button
          type="button"
          className={buttonClass()}
          disabled={running || videos.length === 0}
          onClick={() => void run(videos)}
        >
          Extract frames for {videos.length} video{videos.length === 1 ? "" : "s"}
        </button>
        <button
          type="button"
          className={buttonClass("danger")}
          disabled={!running}
          onClick={() => abort.current?.abort()}
        >
          Cancel
        </button>
      </div>
      {/* A disabled query stays pending: in uniform mode the list came with the page. */}
      {!uniform && pending.isPending && <p className="text-sm text-slate-500">Loading…</p>}
      {lastRun && !running && <ExtractionSummary states={lastRun.map((id) => rows[id]?.state ?? "waiting")} />}
      {pending.error && (
        <p role="alert" className="text-sm text-red-700">
          {pending.error.message}
        </p>
      )}
      {(uniform || pending.data) && videos.length === 0 && Object.keys(rows).length === 0 && (
        <p className="text-sm text-slate-500">
          {uniform
            ? `Every video${uniform.itemsNoun ? ` with ${uniform.itemsNoun}` : ""} has a uniform set of ${uniform.count} frames${uniform.atPlannedSize ? " at the planned size" : ""}.`
            : "No video is waiting for frames."}
        </p>
      )}
      <PendingList videos={listed} rows={rows} />
    </div>
  );
}

/** What the last extraction did, once it ended: how many sets were extracted, failed, or were cancelled. */
function ExtractionSummary({ states }: { states: RowState["state"][] }) {
  const count = (state: RowState["state"]) => states.filter((s) => s === state).length;
  const [done, failed, cancelled] = [count("done"), count("error"), count("cancelled")];
  const tone = failed > 0 ? "text-red-700" : cancelled > 0 ? "text-amber-800" : "text-emerald-700";
  return (
    <p role="status" className={`text-sm ${tone}`} data-testid="pending-summary">
      Extraction finished: {done} of {states.length} video{states.length === 1 ? "" : "s"} extracted
      {failed > 0 ? `, ${failed} failed (see the rows below)` : ""}
      {cancelled > 0 ? `, ${cancelled} cancelled` : ""}.
    </p>
  );
}

/** Downloads one video, probes it, extracts its frame set and uploads it; a failure is reported to the server too. */
async function extractOne(
  video: PendingVideo,
  extractor: FrameExtractor,
  settings: ExtractionSettingsValue,
  signal: AbortSignal,
  setRow: (id: string, row: RowState) => void,
) {
  try {
    setRow(video.id, { state: "working", message: "Downloading…", progress: 0.05 });
    const response = await fetch(`/api/v1/videos/${video.id}/file`, { signal });
    if (!response.ok) throw new Error(`Could not download the video (${response.status}).`);
    const file = await response.blob();
    // Probing first says what is wrong with a file that is not a readable video.
    await extractor.probe(file, { signal });
    const result = await extractAndUploadFrameSet({
      extractor,
      videoId: video.id,
      file,
      parameters: settingsToParameters(video.maxSide ? { ...settings, maxSide: video.maxSide } : settings),
      signal,
      onProgress: (done, total) =>
        setRow(video.id, {
          state: "working",
          message: `Extracting ${done}/${total}`,
          progress: 0.2 + 0.8 * (done / Math.max(1, total)),
        }),
    });
    setRow(video.id, {
      state: "done",
      message: `${result.keyFrames} key frames, ${result.frames} frames`,
      progress: 1,
    });
  } catch (error) {
    if (signal.aborted) {
      setRow(video.id, { state: "cancelled", message: "Cancelled.", progress: 0 });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    setRow(video.id, { state: "error", message, progress: 0 });
    await fetch(`/api/v1/videos/${video.id}/extraction-error`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: message.slice(0, 2000) }),
    }).catch(() => {});
  }
}

/** Every listed video once, with its state, progress and message. */
function PendingList({ videos, rows }: { videos: readonly PendingVideo[]; rows: Record<string, RowState> }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
      {[...new Map([...videos.map((v) => [v.id, v] as const)]).values()].map((video) => {
        const row = rows[video.id];
        return (
          <li
            key={video.id}
            className="flex flex-col gap-1 px-3 py-2"
            data-testid="pending-item"
            data-state={row?.state ?? "waiting"}
          >
            <div className="flex gap-3">
              <span className="min-w-0 flex-1 truncate font-mono text-xs">{video.relativePath}</span>
              {video.maxSide ? (
                <span className="text-xs text-slate-500" data-testid="pending-max-side">
                  longest side {video.maxSide} px
                </span>
              ) : null}
              {video.problem && !row ? <span className="text-xs text-amber-700">{video.problem}</span> : null}
              <span className="text-xs text-slate-500">{row?.state ?? "waiting"}</span>
            </div>
            {row?.state === "working" && (
              <div className="h-1 w-full overflow-hidden rounded bg-slate-100">
                <div className="h-full bg-indigo-400" style={{ width: `${row.progress * 100}%` }} />
              </div>
            )}
            {row?.message && (
              <span className={`text-xs ${row.state === "error" ? "text-red-700" : "text-slate-500"}`}>
                {row.message}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
