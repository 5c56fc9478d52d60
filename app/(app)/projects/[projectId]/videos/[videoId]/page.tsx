import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { DeleteVideoButton } from "@/components/videos/delete-video-button";
import { NoPrompt } from "@/components/videos/no-prompt";
import { VideoMetadataEditor } from "@/components/videos/video-metadata-editor";
import { VideoNav } from "@/components/videos/video-nav";
import { VideoWorkspace } from "@/components/videos/video-workspace";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppError, isAppErrorCode } from "@/lib/errors";
import { formatSeconds } from "@/lib/format/numbers";
import { videoRuns } from "@/lib/judge/video-runs";
import { runPickerLabels } from "@/lib/runs/run-option-labels";
import { getStorage } from "@/lib/storage/storage";
import { videoItemLists } from "@/lib/tasks/video-item-lists";
import { promptSampleCount } from "@/lib/videos/compare-samples";
import { getVideoDetail } from "@/lib/videos/queries";
import { videoEditHistory } from "@/lib/videos/video-edits";
import { searchParamsObject, videoListQuerySchema } from "@/lib/videos/video-filter";
import { videoNeighbours } from "@/lib/videos/video-neighbours";
// Installs the task modules in this bundle's copy of the core too (instrumentation.ts installs them for the server).
import "@/lib/tasks/modules";

export default async function VideoPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; videoId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, videoId } = await params;
  const search = await searchParams;
  const requestedRun = search.runId;
  // The video list this page was opened from (its filter and order), carried as `list`; else the whole list.
  const list = typeof search.list === "string" ? search.list : "";
  const { actor, role, catalogue } = await requirePageProjectAccess(projectId);
  const listQuery = videoListQuerySchema(catalogue).safeParse(searchParamsObject(new URLSearchParams(list)));
  const video = await getVideoDetail({ prisma, storage: getStorage() }, actor, videoId).catch((error: unknown) => {
    if (isAppErrorCode(error, "not_found")) notFound();
    throw error;
  });
  if (video.projectId !== projectId) notFound();
  const frameSet = video.frameSets.at(-1);
  const [runs, sampleCount, itemLists, neighbours, edits] = await Promise.all([
    videoRuns(prisma, actor, video.id),
    promptSampleCount(prisma, actor, video.id),
    // The tasks' items of this video (say, the items a task attaches to it), each task's list read from the registry.
    videoItemLists(prisma, actor, projectId, video.id, catalogue),
    // A list link whose filter no longer applies (a deleted run, a filter the run's task lacks) shows no neighbours.
    listQuery.success
      ? videoNeighbours(prisma, actor, projectId, listQuery.data, video.id, catalogue).catch((error: unknown) => {
          if (isAppError(error)) return null;
          throw error;
        })
      : null,
    videoEditHistory(prisma, actor, video.id),
  ]);
  // The run selector tells runs apart by task and by what differs between them (lib/runs/run-option-labels).
  const runLabels = await runPickerLabels(
    prisma,
    projectId,
    runs.map((run) => run.id),
  );
  const videoHref = (id: string | null) =>
    id ? `/projects/${projectId}/videos/${id}${list ? `?list=${encodeURIComponent(list)}` : ""}` : null;
  // Only a run that judged this video can be chosen; anything else shows the latest.
  const runId = typeof requestedRun === "string" && runs.some((run) => run.id === requestedRun) ? requestedRun : null;
  return (
    <div className="flex flex-col gap-5">
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
        {roleCan(role, "videos.delete") && (
          <DeleteVideoButton
            projectId={projectId}
            videoId={video.id}
            afterHref={`/projects/${projectId}/videos${list ? `?${list}` : ""}`}
          />
        )}
      </div>
      {neighbours && (
        <VideoNav
          previousHref={videoHref(neighbours.previousId)}
          nextHref={videoHref(neighbours.nextId)}
          position={neighbours.position}
          total={neighbours.total}
        />
      )}
      {video.error && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          data-testid="video-error"
        >
          {video.error}
        </p>
      )}
      {!frameSet && (
        <EmptyState title="No frames yet">
          {roleCan(role, "videos.import") ? (
            <a href={`/projects/${projectId}/pending`} className="text-indigo-700 underline">
              Extract frames for pending videos
            </a>
          ) : (
            "An owner extracts them on the Extract pending page."
          )}
        </EmptyState>
      )}
      <VideoWorkspace
        videoId={video.id}
        videoUrl={video.url}
        frameSets={video.frameSets.map((set) => ({ id: set.id, mode: set.mode, frames: set.frames }))}
        runs={runs.map((run) => ({
          id: run.id,
          label: runLabels.get(run.id) ?? run.pipeline,
          createdAt: run.createdAt.toISOString(),
          runStatus: run.runStatus,
          simulated: run.simulated,
          endpoint: run.endpoint,
        }))}
        runId={runId}
        currentUserId={actor.userId}
        canReview={roleCan(role, "scores.review")}
        fps={video.fps}
        top={
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
              {[
                video.model,
                video.dimensions.join(", "),
                video.sampleIndex !== null ? `sample ${video.sampleIndex}` : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
          </section>
        }
        aside={
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
              canEdit={roleCan(role, "videos.edit")}
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
        }
      />
      {itemLists.map((list) => (
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
      ))}
    </div>
  );
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
