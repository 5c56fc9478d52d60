import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import {
  NoFramesYet,
  VideoAboutCard,
  VideoErrorNotice,
  VideoItemListCards,
  VideoPromptCard,
  VideoTitleBar,
} from "@/components/videos/video-page-sections";
import { VideoNav } from "@/components/videos/video-nav";
import { VideoWorkspace } from "@/components/videos/video-workspace";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppError, isAppErrorCode } from "@/lib/errors";
import { videoRuns } from "@/lib/judge/runs/video-runs";
import { runPickerLabels } from "@/lib/judge/runs/run-option-labels";
import { getStorage } from "@/lib/storage/storage";
import { videoItemLists } from "@/lib/tasks/video-item-lists";
import { promptSampleCount } from "@/lib/videos/compare-samples";
import { getVideoDetail } from "@/lib/videos/queries";
import { videoEditHistory } from "@/lib/videos/video-edits";
import { searchParamsObject, videoListQuerySchema } from "@/lib/videos/video-filter";
import { videoNeighbours } from "@/lib/videos/video-neighbours";
import { readProjectSpanLabels } from "@/lib/spans/project-span-labels";

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
  const { actor, role, catalogue, access } = await requirePageProjectAccess(projectId);
  const listQuery = videoListQuerySchema(catalogue).safeParse(searchParamsObject(new URLSearchParams(list)));
  const video = await getVideoDetail({ prisma, storage: getStorage() }, access, videoId).catch((error: unknown) => {
    if (isAppErrorCode(error, "not_found")) notFound();
    throw error;
  });
  if (video.projectId !== projectId) notFound();
  const frameSet = video.frameSets.at(-1);
  const [runs, sampleCount, itemLists, neighbours, edits, spanLabels] = await Promise.all([
    videoRuns(prisma, access, video.id),
    promptSampleCount(prisma, access, video.id),
    // The tasks' items of this video (say, the items a task attaches to it), each task's list read from the registry.
    videoItemLists(prisma, access, video.id, catalogue),
    // A list link whose filter no longer applies (a deleted run, a filter the run's task lacks) shows no neighbours.
    listQuery.success
      ? videoNeighbours(prisma, access, listQuery.data, video.id, catalogue).catch((error: unknown) => {
          if (isAppError(error)) return null;
          throw error;
        })
      : null,
    videoEditHistory(prisma, access, video.id),
    // The project's own span labels: the span editor's tracks when the shown run's task has none.
    readProjectSpanLabels(prisma, access),
  ]);
  // The run selector tells runs apart by task and by what differs between them (lib/judge/runs/run-option-labels).
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
      <VideoTitleBar
        projectId={projectId}
        video={video}
        list={list}
        sampleCount={sampleCount}
        canDelete={roleCan(role, "videos.delete")}
      />
      {neighbours && (
        <VideoNav
          previousHref={videoHref(neighbours.previousId)}
          nextHref={videoHref(neighbours.nextId)}
          position={neighbours.position}
          total={neighbours.total}
        />
      )}
      {video.error && <VideoErrorNotice error={video.error} />}
      {!frameSet && <NoFramesYet projectId={projectId} canExtract={roleCan(role, "videos.import")} />}
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
        projectId={projectId}
        projectSpanLabels={spanLabels}
        top={<VideoPromptCard video={video} />}
        aside={<VideoAboutCard video={video} edits={edits} canEdit={roleCan(role, "videos.edit")} />}
      />
      <VideoItemListCards itemLists={itemLists} />
    </div>
  );
}
