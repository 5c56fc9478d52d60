import { queueTypeOf } from "@/lib/queues/queue-types";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ActionForm } from "@/components/action-form";
import { Card } from "@/components/empty-state";
import { Guidelines } from "@/components/markdown";
import { QueueProgress } from "@/components/queues/queue-progress";
import { QueueOwnerControls } from "@/components/queues/queue-owner-controls";
import { StartReviewing } from "@/components/queues/start-reviewing";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { findProjectRun } from "@/lib/judge/runs/run-overview";
import { getProject } from "@/lib/projects/projects";
import { getQueue } from "@/lib/queues/get-queue";
import { filterToSearchParams } from "@/lib/videos/video-filter";
import { setQueueGuidelinesAction } from "../../../../actions";
import { runNameOfRow } from "@/lib/run-records/run-name";
import type { TaskCatalogue } from "@/lib/task-modules/task-catalogue";

export default async function QueuePage({ params }: { params: Promise<{ projectId: string; queueId: string }> }) {
  const { projectId, queueId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const queue = await getQueue(prisma, access, queueId).catch((error: unknown) => {
    if (isAppErrorCode(error, "not_found")) notFound();
    throw error;
  });
  const run = await findProjectRun(prisma, access, queue.runId);
  const project = await getProject(prisma, access);
  const { sort: _sort, dir: _dir, ...filter } = queue.filter;
  // The agreement report over the queue's items: its run and the filter that chose them (one category of a scores queue).
  const agreementParams = filterToSearchParams({
    ...filter,
    runId: queue.runId,
    ...(queue.categories.length === 1 ? { category: queue.categories[0] } : {}),
  }).toString();
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="queue-name">
          {queue.name}
        </h1>
        {queue.blind && (
          <span className="rounded bg-slate-800 px-2 py-0.5 text-xs text-white">
            blind: reviewers see the judge&apos;s values only after submitting
          </span>
        )}
        {queue.localize && (
          <span className="rounded bg-sky-100 px-2 py-0.5 text-xs text-sky-900" data-testid="queue-localize">
            localises: reviewers also mark where, as spans
          </span>
        )}
        {queue.archived && (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800" data-testid="queue-archived">
            archived
          </span>
        )}
        {queue.assignment.assignees.length > 0 && (
          <span className="rounded bg-indigo-50 px-2 py-0.5 text-xs text-indigo-800" data-testid="queue-assigned">
            {queue.assignment.toMe
              ? `assigned to you${queue.assignment.assignees.length > 1 ? ` and ${queue.assignment.assignees.length - 1} more` : ""}`
              : "assigned to someone else"}
          </span>
        )}
        <Link href={`/projects/${projectId}/queues`} className="ml-auto text-sm text-indigo-700 underline">
          all queues
        </Link>
      </div>
      <Card title="Progress">
        <QueueProgress progress={queue.progress} reviewersPerItem={queue.reviewersPerItem} perReviewer />
      </Card>
      {roleCan(role, "scores.review") ? (
        <YourPartCard projectId={projectId} queue={queue} agreementParams={agreementParams} />
      ) : (
        <p className="text-sm text-slate-500">Your role ({role}) can follow this queue but not review in it.</p>
      )}
      {roleCan(role, "queues.manage") && (
        <Card title="Manage">
          <QueueOwnerControls
            queueId={queue.id}
            archived={queue.archived}
            assignees={queue.assignment.assignees}
            handOut={queue.handOut}
          />
        </Card>
      )}
      {(project.guidelines || queue.guidelines || roleCan(role, "queues.manage")) && (
        <GuidelinesCard
          projectId={projectId}
          queue={queue}
          projectGuidelines={project.guidelines}
          canManage={roleCan(role, "queues.manage")}
        />
      )}
      <QueueAboutCard projectId={projectId} queue={queue} run={run} catalogue={catalogue} />
    </div>
  );
}

type Queue = Awaited<ReturnType<typeof getQueue>>;

/** A reviewer's part: what they submitted and hold, then the way in (or why there is none: done, archived, assigned). */
function YourPartCard({
  projectId,
  queue,
  agreementParams,
}: {
  projectId: string;
  queue: Queue;
  agreementParams: string;
}) {
  return (
    <Card title="Your part">
      <p className="mb-3 text-sm" data-testid="my-queue-count">
        You have submitted {queue.mine.done} item{queue.mine.done === 1 ? "" : "s"}
        {queue.mine.claimed ? ` and have ${queue.mine.claimed} in progress` : ""}.
      </p>
      {queue.finished ? (
        <p className="text-sm" data-testid="queue-done">
          Done — {queue.itemCount} item{queue.itemCount === 1 ? "" : "s"},{" "}
          <Link href={`/projects/${projectId}/agreement?${agreementParams}`} className="text-indigo-700 underline">
            see agreement
          </Link>
        </p>
      ) : queue.archived ? (
        <p className="text-sm text-slate-500">This queue is archived: nothing can be claimed from it.</p>
      ) : !queue.assignment.open ? (
        <p className="text-sm text-slate-500" data-testid="queue-assigned-elsewhere">
          This queue is assigned to someone else: only its assignees may review its items.
        </p>
      ) : (
        <StartReviewing projectId={projectId} queueId={queue.id} />
      )}
    </Card>
  );
}

/** The project's and the queue's guidelines, and for managers the queue's own to edit. */
function GuidelinesCard({
  projectId,
  queue,
  projectGuidelines,
  canManage,
}: {
  projectId: string;
  queue: Queue;
  projectGuidelines: string;
  canManage: boolean;
}) {
  return (
    <Card title="Guidelines">
      <div className="flex flex-col gap-4">
        <Guidelines project={projectGuidelines} queue={queue.guidelines} />
        {!projectGuidelines && !queue.guidelines && <p className="text-sm text-slate-500">No guidelines yet.</p>}
        {canManage && (
          <ActionForm action={setQueueGuidelinesAction} submitLabel="Save queue guidelines" variant="secondary">
            <input type="hidden" name="projectId" value={projectId} />
            <input type="hidden" name="queueId" value={queue.id} />
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium">This queue&apos;s guidelines (Markdown)</span>
              <textarea
                name="guidelines"
                defaultValue={queue.guidelines}
                rows={5}
                maxLength={20000}
                className="rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs"
                data-testid="queue-guidelines-input"
              />
            </label>
          </ActionForm>
        )}
      </div>
    </Card>
  );
}

/** What the queue reviews, for whom, how it hands items out, its run and the videos it chose. */
function QueueAboutCard({
  projectId,
  queue,
  run,
  catalogue,
}: {
  projectId: string;
  queue: Awaited<ReturnType<typeof getQueue>>;
  run: Awaited<ReturnType<typeof findProjectRun>>;
  catalogue: TaskCatalogue;
}) {
  const task = catalogue.findTask(run?.pipeline);
  const { sort, dir, ...filter } = queue.filter;
  const filterText = Object.entries(filter).map(([k, v]) => `${k}=${v}`);
  return (
    <Card title="About this queue">
      <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-slate-500">Reviewing</dt>
        <dd>
          {queueTypeOf(catalogue, queue.scope)
            ? queueTypeOf(catalogue, queue.scope)!.describeReviewing(queue.filter as Record<string, unknown>)
            : queue.scope === "verdict"
              ? `the ${task?.verdict ? (task.metrics.find((m) => m.id === task.verdict!.metricId)?.label.toLowerCase() ?? "judge's") : "judge's"} verdict (and optionally the other reviewed metrics)`
              : `${queue.scope === "unstable" ? "unstable " : ""}judge scores: ${queue.categories.length ? queue.categories.join(", ") : "all categories"}`}
        </dd>
        <dt className="text-slate-500">Assigned to</dt>
        <dd>{queue.assignment.assignees.length ? queue.assignment.assignees.join(", ") : "every reviewer"}</dd>
        <dt className="text-slate-500">Reviewers per item</dt>
        <dd>{queue.reviewersPerItem}</dd>
        <dt className="text-slate-500">Next item</dt>
        <dd data-testid="queue-hand-out">
          {queue.handOut === "coverage"
            ? "coverage first: the items with the fewest reviews first"
            : "overlap first: the first item a reviewer has not reviewed that still needs one"}
        </dd>
        <dt className="text-slate-500">Judge run</dt>
        <dd>
          {run ? (
            <Link href={`/projects/${projectId}/runs/${run.id}`} className="text-indigo-700 underline">
              {runNameOfRow(run, catalogue)}
            </Link>
          ) : (
            "—"
          )}
        </dd>
        <dt className="text-slate-500">Videos chosen by</dt>
        <dd>
          {typeof queue.filter.chosen === "string" ? (
            <span data-testid="queue-chosen-by">{queue.filter.chosen}</span>
          ) : (
            <>
              {filterText.length ? filterText.join(" · ") : "no filter"}{" "}
              {sort ? `· sorted by ${sort} ${dir ?? ""}` : ""}{" "}
              <Link
                href={`/projects/${projectId}/videos?${filterToSearchParams(queue.filter).toString()}`}
                className="text-indigo-700 underline"
              >
                see them in the video list
              </Link>
            </>
          )}
        </dd>
      </dl>
    </Card>
  );
}
