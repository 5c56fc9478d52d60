import { requirePageProjectAccess } from "@/app/_server/actor";
import { ActionForm, Field, RoleSelect } from "@/components/action-form";
import { Card, EmptyState } from "@/components/empty-state";
import { DeleteProjectButton } from "@/components/projects/delete-project-button";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { projectOverviewCounts } from "@/lib/projects/project-overview";
import { getProject, listMembers } from "@/lib/projects/projects";
import Link from "next/link";
import { addMemberAction, changeRoleAction, removeMemberAction, renameProjectAction, setArchivedAction, setProjectGuidelinesAction } from "../../actions";

export default async function ProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { actor, role } = await requirePageProjectAccess(projectId);
  const project = await getProject(prisma, actor, projectId);
  const members = await listMembers(prisma, actor, projectId);
  const canManage = roleCan(role, "members.manage");
  const counts = await projectOverviewCounts(prisma, actor, projectId);
  const count = (status: string) => counts.videos.byStatus[status] ?? 0;
  const { runs: runCount, judgments: judgmentCount, myJudgments: myJudgmentCount, reviewers: reviewerCount, openQueues } = counts;
  const totalVideos = counts.videos.total;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="project-name">
          {project.name}
        </h1>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600">your role: {role}</span>
        {project.archivedAt && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800">archived</span>}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card
          title="Videos"
          actions={
            roleCan(role, "videos.import") ? (
              <a href={`/projects/${projectId}/import`} className="text-sm text-indigo-700 underline">
                Import
              </a>
            ) : undefined
          }
        >
          {totalVideos === 0 ? (
            <EmptyState title="No videos yet">
              {roleCan(role, "videos.import")
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
                {count("pending_extraction") > 0 && roleCan(role, "videos.import") && (
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
        <Card
          title="Judge runs"
          actions={
            <Link href={`/projects/${projectId}/judge`} className="text-sm text-indigo-700 underline">
              {roleCan(role, "runs.manage") ? "Run a judge" : "Runs"}
            </Link>
          }
        >
          {runCount === 0 ? (
            <EmptyState title="No judge runs yet">Runs of the hallucination pipeline will be listed here.</EmptyState>
          ) : (
            <p className="text-sm">
              <Link href={`/projects/${projectId}/judge`} className="text-indigo-700 underline">
                {runCount} run{runCount === 1 ? "" : "s"}
              </Link>
            </p>
          )}
        </Card>
        <Card
          title="Reviews"
          actions={
            // Many pages hang off reviews: the links wrap inside the card instead of running past its edge.
            <span className="flex min-w-0 flex-wrap justify-end gap-x-3 gap-y-1 text-sm">
              <Link href={`/projects/${projectId}/queues`} className="text-indigo-700 underline">Review queues</Link>
              <Link href={`/projects/${projectId}/agreement`} className="text-indigo-700 underline">Agreement</Link>
              {roleCan(role, "gold.set") && (
                <Link href={`/projects/${projectId}/adjudication`} className="text-indigo-700 underline">Adjudication</Link>
              )}
              <Link href={`/projects/${projectId}/calibration`} className="text-indigo-700 underline">Paper&apos;s table</Link>
              <Link href={`/projects/${projectId}/captions`} className="text-indigo-700 underline">Captions</Link>
              <Link href={`/projects/${projectId}/qa`} className="text-indigo-700 underline">Video QA</Link>
              <Link href={`/projects/${projectId}/construction`} className="text-indigo-700 underline" data-testid="construction-link">Q&amp;A construction</Link>
              <Link href={`/projects/${projectId}/prompts`} className="text-indigo-700 underline" data-testid="prompts-link">Prompt versions</Link>
            </span>
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
              <p>
                {judgmentCount} judgment{judgmentCount === 1 ? "" : "s"} by {reviewerCount} reviewer{reviewerCount === 1 ? "" : "s"} · {myJudgmentCount} yours
              </p>
              <p>
                <Link href={`/projects/${projectId}/queues`} className="text-indigo-700 underline">
                  {openQueues} review queue{openQueues === 1 ? "" : "s"}
                </Link>
                {" · "}
                <Link href={`/projects/${projectId}/videos?review=not_reviewed_by_me`} className="text-indigo-700 underline">
                  videos you have not reviewed
                </Link>
              </p>
            </div>
          )}
        </Card>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={`Members (${members.length})`}>
          <ul className="mb-4 divide-y divide-slate-100" data-testid="member-list">
            {members.map((member) => (
              <li key={member.userId} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                <span className="min-w-0 flex-1 truncate">
                  {member.name} <span className="text-slate-500">&lt;{member.email}&gt;</span>
                </span>
                {canManage ? (
                  <>
                    <ActionForm action={changeRoleAction} submitLabel="Set role" variant="secondary" className="flex items-end gap-2">
                      <input type="hidden" name="projectId" value={projectId} />
                      <input type="hidden" name="userId" value={member.userId} />
                      <RoleSelect defaultValue={member.role} />
                    </ActionForm>
                    <ActionForm action={removeMemberAction} submitLabel="Remove" variant="danger" className="flex items-end gap-2">
                      <input type="hidden" name="projectId" value={projectId} />
                      <input type="hidden" name="userId" value={member.userId} />
                    </ActionForm>
                  </>
                ) : (
                  <span className="text-xs text-slate-500">{member.role}</span>
                )}
              </li>
            ))}
          </ul>
          {canManage && (
            <ActionForm action={addMemberAction} submitLabel="Add member">
              <input type="hidden" name="projectId" value={projectId} />
              <Field label="Email of an existing account" name="email" type="email" />
              <RoleSelect />
            </ActionForm>
          )}
        </Card>

        {roleCan(role, "project.rename") && (
          <Card title="Settings">
            <div className="flex flex-col gap-6">
              <ActionForm action={renameProjectAction} submitLabel="Rename">
                <input type="hidden" name="projectId" value={projectId} />
                <Field label="Project name" name="name" defaultValue={project.name} />
              </ActionForm>
              <ActionForm action={setProjectGuidelinesAction} submitLabel="Save guidelines">
                <input type="hidden" name="projectId" value={projectId} />
                <label className="flex flex-col gap-1 text-sm">
                  <span className="font-medium">Guidelines for reviewers (Markdown)</span>
                  <textarea
                    name="guidelines"
                    defaultValue={project.guidelines}
                    rows={6}
                    maxLength={20000}
                    className="rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs"
                    data-testid="project-guidelines-input"
                  />
                  <span className="text-xs text-slate-500">Shown on the review screen of every queue (g shows or hides them), before the queue&apos;s own.</span>
                </label>
              </ActionForm>
              <ActionForm action={setArchivedAction} submitLabel={project.archivedAt ? "Restore project" : "Archive project"} variant="secondary">
                <input type="hidden" name="projectId" value={projectId} />
                <input type="hidden" name="archived" value={project.archivedAt ? "false" : "true"} />
                <p className="text-sm text-slate-500">
                  Archived projects keep all their data and leave the main project list.
                </p>
              </ActionForm>
              {roleCan(role, "project.delete") && <DeleteProjectButton projectId={projectId} />}
            </div>
          </Card>
        )}
      </div>
    </div>
  );
}
