import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ProjectSpansCard } from "@/components/projects/project-span-counts";
import { projectOverviewCounts, reviewCountsSentence } from "@/lib/projects/project-overview";
import { projectSpanCounts } from "@/lib/videos/span-counts";
import { getProject } from "@/lib/projects/projects";
import { pipelineNames } from "@/lib/task-modules/task-display";
import Link from "next/link";

export default async function ProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const project = await getProject(prisma, access);
  const counts = await projectOverviewCounts(prisma, access);
  const { runs: runCount } = counts;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="project-name">
          {project.name}
        </h1>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600">your role: {role}</span>
        <Link href={`/projects/${projectId}/settings`} className="text-sm text-indigo-700 underline">
          members and settings
        </Link>
        {project.archivedAt && (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800">archived</span>
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <VideosCard projectId={projectId} counts={counts} canImport={roleCan(role, "videos.import")} />
        <Card
          title="Judge runs"
          actions={
            <Link href={`/projects/${projectId}/judge`} className="text-sm text-indigo-700 underline">
              {roleCan(role, "runs.manage") ? "Run a judge" : "Runs"}
            </Link>
          }
        >
          {runCount === 0 ? (
            <EmptyState title="No judge runs yet">
              Runs of the judge pipelines ({pipelineNames(catalogue).join("; ")}) will be listed here.
            </EmptyState>
          ) : (
            <p className="text-sm">
              <Link href={`/projects/${projectId}/judge`} className="text-indigo-700 underline">
                {runCount} run{runCount === 1 ? "" : "s"}
              </Link>
            </p>
          )}
        </Card>
        <ReviewsCard projectId={projectId} counts={counts} canAdjudicate={roleCan(role, "gold.set")} />
        <ProjectSpansCard projectId={projectId} counts={await projectSpanCounts(prisma, access)} />
      </div>
    </div>
  );
}

type OverviewCounts = Awaited<ReturnType<typeof projectOverviewCounts>>;

/** The project's videos by status, with the ways to import them, extract their frames and check completeness. */
function VideosCard({
  projectId,
  counts,
  canImport,
}: {
  projectId: string;
  counts: OverviewCounts;
  canImport: boolean;
}) {
  const count = (status: string) => counts.videos.byStatus[status] ?? 0;
  const totalVideos = counts.videos.total;
  return (
    <Card
      title="Videos"
      actions={
        canImport ? (
          <a href={`/projects/${projectId}/import`} className="text-sm text-indigo-700 underline">
            Import
          </a>
        ) : undefined
      }
    >
      {totalVideos === 0 ? (
        <EmptyState title="No videos yet">
          {canImport
            ? "Import a folder of generated clips (e.g. a VBench-2.0 sample folder) to start."
            : "An owner imports videos; they will show here."}
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-2 text-sm" data-testid="video-counts">
          <p>
            <Link href={`/projects/${projectId}/videos`} className="font-medium text-indigo-700 underline">
              {totalVideos} videos
            </Link>{" "}
            · {count("ready")} ready · {count("pending_extraction")} waiting for frames · {count("failed")} failed
          </p>
          <div className="flex gap-3">
            {count("pending_extraction") > 0 && canImport && (
              <a href={`/projects/${projectId}/pending`} className="text-indigo-700 underline">
                Extract pending
              </a>
            )}
            <Link href={`/projects/${projectId}/completeness`} className="text-indigo-700 underline">
              VBench completeness
            </Link>
          </div>
        </div>
      )}
    </Card>
  );
}

/** The people's and label sets' judgments and the open review queues, with the way to adjudicate. */
function ReviewsCard({
  projectId,
  counts,
  canAdjudicate,
}: {
  projectId: string;
  counts: OverviewCounts;
  canAdjudicate: boolean;
}) {
  const { runs: runCount, judgments: judgmentCount, openQueues } = counts;
  return (
    <Card
      title="Reviews"
      actions={
        canAdjudicate ? (
          <Link href={`/projects/${projectId}/adjudication`} className="text-sm text-indigo-700 underline">
            Adjudicate
          </Link>
        ) : undefined
      }
    >
      {judgmentCount === 0 && openQueues === 0 ? (
        <EmptyState title="No human judgments yet">
          {runCount === 0
            ? "Once a judge run has scored videos, reviewers give their own values on a video's page or through a review queue."
            : "Open a video to give your own values, or work through a review queue."}
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-1 text-sm" data-testid="review-counts">
          {/* People and imported label sets counted apart: a label set's annotator is not a reviewer here. */}
          <p data-testid="judgment-counts">{reviewCountsSentence(counts)}</p>
          <p>
            <Link href={`/projects/${projectId}/queues`} className="text-indigo-700 underline">
              {openQueues} review queue{openQueues === 1 ? "" : "s"}
            </Link>
            {" · "}
            <Link
              href={`/projects/${projectId}/videos?review=not_reviewed_by_me`}
              className="text-indigo-700 underline"
            >
              videos you have not reviewed
            </Link>
          </p>
        </div>
      )}
    </Card>
  );
}
