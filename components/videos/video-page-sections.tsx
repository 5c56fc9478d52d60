/**
 * The video page's sections: its title bar, its error and no-frames notices, the prompt card, the "About this video"
 * card with the metadata editor, and the tasks' item lists.
 */
import Link from "next/link";
import { Card, EmptyState } from "@/components/empty-state";
import { DeleteVideoButton } from "@/components/videos/delete-video-button";
import { NoPrompt } from "@/components/videos/no-prompt";
import { VideoMetadataEditor } from "@/components/videos/video-metadata-editor";
import { formatSeconds } from "@/lib/format/numbers";
import type { VideoItemList } from "@/lib/task-modules/task-module";
import type { getVideoDetail } from "@/lib/videos/queries";
import type { videoEditHistory } from "@/lib/videos/video-edits";

type Video = Awaited<ReturnType<typeof getVideoDetail>>;

export function VideoTitleBar({
  projectId,
  video,
  list,
  sampleCount,
  canDelete,
}: {
  projectId: string;
  video: Video;
  list: string;
  sampleCount: number;
  canDelete: boolean;
}) {
  return (
    <div className="flex flex-wrap items-baseline gap-3">
      <h1 className="break-all text-xl font-semibold tracking-tight" data-testid="video-title">
        {video.fileName}
      </h1>
      <span
        className={`rounded px-2 py-0.5 text-xs ${video.status === "failed" ? "bg-red-100 text-red-800" : video.status === "ready" ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800"}`}
        data-testid="video-status"
      >
        {video.status.replace("_", " ")}
      </span>
      <Link
        href={`/projects/${projectId}/compare?videoId=${encodeURIComponent(video.id)}`}
        className="ml-auto text-sm text-indigo-700 underline"
        data-testid="compare-link"
      >
        Compare samples ({sampleCount})
      </Link>
      <Link
        href={`/projects/${projectId}/videos${list ? `?${list}` : ""}`}
        className="text-sm text-indigo-700 underline"
        data-testid="back-to-list"
      >
        {list ? "back to the list" : "all videos"}
      </Link>
      {canDelete && (
        <DeleteVideoButton
          projectId={projectId}
          videoId={video.id}
          afterHref={`/projects/${projectId}/videos${list ? `?${list}` : ""}`}
        />
      )}
    </div>
  );
}

/** Why the video could not be read (its import's or probe's error). */
export function VideoErrorNotice({ error }: { error: string }) {
  return (
    <p
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
      data-testid="video-error"
    >
      {error}
    </p>
  );
}

/** A video without frames: where an owner extracts them, or that an owner does. */
export function NoFramesYet({ projectId, canExtract }: { projectId: string; canExtract: boolean }) {
  return (
    <EmptyState title="No frames yet">
      {canExtract ? (
        <a href={`/projects/${projectId}/pending`} className="text-indigo-700 underline">
          Extract frames for pending videos
        </a>
      ) : (
        "An owner extracts them on the Extract pending page."
      )}
    </EmptyState>
  );
}

export function VideoPromptCard({ video }: { video: Video }) {
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-3"
      aria-label="Prompt"
      data-testid="video-prompt-card"
    >
      <h2 className="text-xs font-medium uppercase tracking-wide text-slate-500">Prompt</h2>
      <p className="mt-1 whitespace-pre-wrap break-words text-base text-slate-900" data-testid="video-prompt">
        {video.prompt ?? <NoPrompt />}
      </p>
      <p className="mt-1 text-xs text-slate-500">
        {[video.model, video.dimensions.join(", "), video.sampleIndex !== null ? `sample ${video.sampleIndex}` : null]
          .filter(Boolean)
          .join(" · ")}
      </p>
    </section>
  );
}

export function VideoAboutCard({
  video,
  edits,
  canEdit,
}: {
  video: Video;
  edits: Awaited<ReturnType<typeof videoEditHistory>>;
  canEdit: boolean;
}) {
  const frameSet = video.frameSets.at(-1);
  return (
    <Card title="About this video">
      <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-slate-500">Dimensions</dt>
        <dd>{video.dimensions.join(", ") || "—"}</dd>
        <dt className="text-slate-500">Model</dt>
        <dd>{video.model ?? "—"}</dd>
        <dt className="text-slate-500">Sample</dt>
        <dd>{video.sampleIndex ?? "—"}</dd>
        <dt className="text-slate-500">Path</dt>
        <dd className="break-all font-mono text-xs">{video.relativePath}</dd>
        <dt className="text-slate-500">Video</dt>
        <dd>
          {video.width}×{video.height} · {video.fps ? `${video.fps.toFixed(2)} fps` : "fps ?"} ·{" "}
          {formatSeconds(video.durationS)} · {video.codec} · {video.container}
          {video.frameCount ? ` · ${video.frameCount} frames` : ""}
        </dd>
        <dt className="text-slate-500">SHA-256</dt>
        <dd className="break-all font-mono text-xs">{video.sha256}</dd>
        {frameSet && (
          <>
            <dt className="text-slate-500">Frame set</dt>
            <dd className="text-xs">
              {frameSet.mode === "uniform"
                ? `uniform · ${frameSet.frameCount} frames evenly spaced in time (no key frames or clusters)`
                : `${frameSet.mode} · ${frameSet.keyFrameCount} key frames · ${frameSet.frameCount} frames`}{" "}
              · decoded by {frameSet.decoder ?? "an unrecorded decoder"}
              {frameSet.decoderVersion ? ` (${frameSet.decoderVersion})` : ""}
              <span className="mt-1 block break-all text-[11px] text-slate-500">
                {describeParameters(frameSet.parameters)}
              </span>
            </dd>
          </>
        )}
      </dl>
      <VideoMetadataEditor
        videoId={video.id}
        updatedAt={video.updatedAt.toISOString()}
        fields={{
          prompt: video.prompt,
          model: video.model,
          dimensions: video.dimensions,
          seed: video.seed,
          sampleIndex: video.sampleIndex,
          extra: (video.extra ?? {}) as Record<string, unknown>,
        }}
        canEdit={canEdit}
        history={edits.map((e) => ({
          id: e.id,
          at: e.at.toISOString(),
          source: e.source,
          editorEmail: e.editor.email,
          before: e.before,
          after: e.after,
        }))}
      />
    </Card>
  );
}

/** The tasks' items of this video, one card per task's list. */
export function VideoItemListCards({ itemLists }: { itemLists: VideoItemList[] }) {
  return itemLists.map((list) => (
    <Card key={list.testId} title={list.title}>
      <ul className="flex flex-col divide-y divide-slate-100 text-sm" data-testid={list.testId}>
        {list.items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-baseline gap-2 py-1.5" data-testid={list.itemTestId}>
            <span className="rounded bg-slate-100 px-1.5 text-xs">{item.tag}</span>
            <b>{item.model}</b>
            <Link href={item.href} className="min-w-0 flex-1 truncate text-indigo-700 underline">
              {item.text}
            </Link>
          </li>
        ))}
      </ul>
      {list.more && (
        <Link href={list.more.href} className="mt-2 block text-sm text-indigo-700 underline">
          {list.more.label}
        </Link>
      )}
    </Card>
  ));
}

/** Frame-set parameters as "name value" pairs, not raw JSON. */
function describeParameters(parameters: unknown): string {
  if (typeof parameters !== "object" || parameters === null) return "";
  return Object.entries(parameters)
    .map(
      ([key, value]) =>
        `${key} ${
          typeof value === "object" && value !== null
            ? Object.entries(value)
                .map(([k, v]) => `${k}=${String(v)}`)
                .join(", ")
            : String(value)
        }`,
    )
    .join(" · ");
}
