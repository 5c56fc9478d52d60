import { queueTypeOf } from "@/lib/queues/queue-types";
import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { buttonClass } from "@/components/class-names";
import { EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { QueueProgress } from "@/components/queues/queue-progress";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { listQueues } from "@/lib/queues/list-queues";

export default async function QueuesPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const archived = (await searchParams).archived === "1";
  const queues = await listQueues(prisma, access, { archived });
  const canManage = roleCan(role, "queues.manage");
  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-center justify-between gap-3">
        <ProjectPageHeader projectId={projectId} title={archived ? "Archived review queues" : "Review queues"} />
        <Link
          href={`/projects/${projectId}/queues${archived ? "" : "?archived=1"}`}
          className="text-sm text-indigo-700 underline"
          data-testid="queues-archived-toggle"
        >
          {archived ? "open queues" : "archived"}
        </Link>
        {canManage && (
          <Link href={`/projects/${projectId}/queues/new`} className={buttonClass()}>
            New queue
          </Link>
        )}
      </div>
      {queues.length === 0 && archived ? (
        <EmptyState title="No archived queues">Owners archive a queue from its page; it then shows here.</EmptyState>
      ) : queues.length === 0 ? (
        <EmptyState title="No review queues yet">
          {canManage
            ? "Filter the video list, then make a queue of the matching videos (or press New queue)."
            : "An owner creates review queues; they will show here."}
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="queue-list">
          {queues.map((queue) => (
            <li
              key={queue.id}
              className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="queue"
            >
              <div className="mb-2 flex flex-wrap items-baseline gap-3">
                <Link
                  href={`/projects/${projectId}/queues/${queue.id}`}
                  className="font-medium text-indigo-700 underline"
                >
                  {queue.name}
                </Link>
                <span className="text-xs text-slate-500">
                  {queueTypeOf(catalogue, queue.scope)
                    ? queueTypeOf(catalogue, queue.scope)!.listLabel
                    : queue.scope === "verdict"
                      ? "verdicts"
                      : `${queue.scope === "unstable" ? "unstable " : ""}scores${queue.categories.length ? ` (${queue.categories.join(", ")})` : ""}`}{" "}
                  · {queue.reviewersPerItem} reviewer
                  {queue.reviewersPerItem === 1 ? "" : "s"} per item · created {queue.createdAt.toLocaleDateString()}
                </span>
                {queue.blind && <span className="rounded bg-slate-800 px-1.5 py-0.5 text-xs text-white">blind</span>}
                {queue.localize && (
                  <span className="rounded bg-sky-100 px-1.5 py-0.5 text-xs text-sky-900">localises</span>
                )}
                {queue.finished && (
                  <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs text-emerald-800">done</span>
                )}
                {queue.assignment.assignees.length > 0 && (
                  <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-800">
                    {queue.assignment.toMe
                      ? "assigned to you"
                      : canManage
                        ? `assigned to ${queue.assignment.assignees.join(", ")}`
                        : "assigned to someone else"}
                  </span>
                )}
              </div>
              <QueueProgress progress={queue.progress} reviewersPerItem={queue.reviewersPerItem} perReviewer />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
