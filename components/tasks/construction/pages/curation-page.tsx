import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { MakeQaSetForm } from "@/components/tasks/construction/make-qa-set-form";
import { NewCurationQueueForm } from "@/components/tasks/construction/new-curation-queue-form";
import { roleCan } from "@/lib/authz/permissions";
import { qaSetTargetProjects } from "@/lib/tasks/construction/construction-overview";
import { listCandidateSets, listCurationQueues } from "@/lib/tasks/construction/curation-queues";
import { prisma } from "@/lib/db/prisma";
import { formatPercent, formatStatistic } from "@/lib/format/numbers";

const percent = formatPercent;
const stat = formatStatistic;

/** The project's curation queues: progress, status counts, curator agreement; owners create them here. */
export default async function CurationQueuesPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { actor, role, access } = await requirePageProjectAccess(projectId);
  const queues = await listCurationQueues(prisma, access);
  const canManage = roleCan(role, "queues.manage");
  const canCurate = roleCan(role, "scores.review");
  const candidateSets = canManage ? await listCandidateSets(prisma, access) : [];
  // Where the caller may import a QA set (the form starts on this project when it is one of them).
  const targets = await qaSetTargetProjects(prisma, actor);
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Curation queues" />
      {queues.length === 0 ? (
        <EmptyState title="No curation queues yet">
          {canManage
            ? "Generate candidate questions, then make a queue over their set below."
            : "An owner creates curation queues; they will show here."}
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="curation-queue-list">
          {queues.map((queue) => (
            <li
              key={queue.id}
              className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="curation-queue"
            >
              <div className="mb-2 flex flex-wrap items-baseline gap-3">
                {canCurate ? (
                  <Link
                    href={`/projects/${projectId}/curation/${queue.id}`}
                    className="font-medium text-indigo-700 underline"
                  >
                    {queue.name}
                  </Link>
                ) : (
                  <span className="font-medium">{queue.name}</span>
                )}
                <span className="text-xs text-slate-500">
                  {queue.candidateSetName} · {queue.curatorsPerQuestion} curator
                  {queue.curatorsPerQuestion === 1 ? "" : "s"} per question ·{" "}
                  {queue.scope === "kept" ? "kept by the filters" : "all candidates"}
                  {queue.assignees.length > 0 && ` · assigned to ${queue.assignees.map((a) => a.email).join(", ")}`}
                </span>
              </div>
              <p className="text-sm text-slate-700" data-testid="curation-progress">
                {queue.progress.complete} of {queue.progress.candidates} questions complete · {queue.progress.decisions}{" "}
                decisions ({queue.progress.mine} yours)
              </p>
              <p className="text-sm" data-testid="curation-counts">
                <span className="text-emerald-800">accepted {queue.counts.accepted}</span> ·{" "}
                <span className="text-red-700">rejected {queue.counts.rejected}</span> ·{" "}
                <span className="text-amber-800">disputed {queue.counts.disputed}</span> ·{" "}
                <span className="text-slate-600">pending {queue.counts.pending}</span>
              </p>
              <p className="text-xs text-slate-600" data-testid="curation-agreement">
                {queue.agreement && queue.agreement.curators < 2
                  ? "Agreement needs at least two curators deciding the same questions."
                  : queue.agreement
                    ? `Curator agreement over ${queue.agreement.items} questions, ${queue.agreement.curators} curators: ${percent(queue.agreement.percentAgreement)} agree · Fleiss' κ ${stat(queue.agreement.fleissKappa)} · Krippendorff's α ${stat(queue.agreement.krippendorffAlpha)}`
                    : "No decisions yet: agreement shows once curators decide."}
              </p>
              <p className="mt-1 text-xs">
                Export the accepted questions:{" "}
                {(["open", "mc", "both"] as const).map((format) => (
                  <a
                    key={format}
                    href={`/api/v1/candidate-sets/${queue.candidateSetId}/export?format=${format}`}
                    className="mr-2 text-indigo-700 underline"
                  >
                    {format} (JSONL)
                  </a>
                ))}
              </p>
              {targets.length > 0 && (
                <MakeQaSetForm
                  candidateSetId={queue.candidateSetId}
                  candidateSetName={queue.candidateSetName}
                  projects={targets}
                  defaultProjectId={projectId}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage &&
        (candidateSets.length ? (
          <NewCurationQueueForm projectId={projectId} candidateSets={candidateSets} />
        ) : (
          <p className="text-sm text-slate-500">
            No candidate set in this project yet: generate questions to curate first.
          </p>
        ))}
    </div>
  );
}
