import { requirePageProjectAccess } from "@/app/_server/actor";
import { DeletedNotice } from "@/components/videos/deleted-notice";
import { loadVideosPage } from "@/components/videos/videos-page-data";
import {
  VideosFilterForm,
  VideosFilterProblem,
  VideosList,
  VideosPagination,
  VideosTitleBar,
  VideosViewBar,
  when,
} from "@/components/videos/videos-page-sections";
import { roleCan } from "@/lib/authz/permissions";
import { searchParamsObject } from "@/lib/videos/video-filter";

export default async function VideosPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const typed = searchParamsObject(await searchParams);
  const data = await loadVideosPage(access, catalogue, typed);
  const { result, problem, pageNotice, base } = data;

  return (
    <div className="flex flex-col gap-4">
      <VideosTitleBar projectId={projectId} data={data} canManageQueues={roleCan(role, "queues.manage")} />

      <DeletedNotice deleted={typed.deleted} />
      <VideosFilterForm data={data} />

      <VideosViewBar data={data} />

      {problem.length > 0 ? (
        <VideosFilterProblem problem={problem} base={base} />
      ) : result ? (
        <>
          {pageNotice && (
            <p
              role="status"
              className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              data-testid="page-notice"
            >
              {pageNotice}
            </p>
          )}
          <p className="text-sm text-slate-600" data-testid="score-run">
            {result.run ? (
              <>
                Scores from run {when(result.run.createdAt)} ({result.run.pipeline}, {result.run.status}
                {result.run.simulated ? ", simulated judgments" : ""}).
              </>
            ) : (
              "No judge run yet: no scores to show."
            )}
          </p>
          <VideosList projectId={projectId} data={data} canDelete={roleCan(role, "videos.delete")} />
          <VideosPagination data={data} />
        </>
      ) : null}
    </div>
  );
}
