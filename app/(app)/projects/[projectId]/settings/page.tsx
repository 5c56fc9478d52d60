import { requirePageProjectAccess } from "@/app/_server/actor";
import { ActionForm, Field, RoleSelect } from "@/components/action-form";
import { Card } from "@/components/empty-state";
import { DeleteProjectButton } from "@/components/projects/delete-project-button";
import { MemberList } from "@/components/projects/member-list";
import { SpanLabelsCard } from "@/components/projects/span-labels-card";
import { WebhooksCard } from "@/components/webhooks/webhooks-card";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { getProject, listMembers } from "@/lib/projects/projects";
import { readProjectSpanLabels } from "@/lib/spans/project-span-labels";
import {
  addMemberAction,
  changeRoleAction,
  removeMemberAction,
  renameProjectAction,
  setArchivedAction,
  setProjectGuidelinesAction,
  setSsoDefaultRoleAction,
} from "../../../actions";

/**
 * The project's members and settings (name, reviewers' guidelines, span labels, archive, webhooks). Every member sees the
 * members; owners change them and the settings. A thin page: further project settings join as cards.
 */
export default async function ProjectSettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { role, access } = await requirePageProjectAccess(projectId);
  const project = await getProject(prisma, access);
  const members = await listMembers(prisma, access);
  const canManage = roleCan(role, "members.manage");

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Members and settings</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={`Members (${members.length})`}>
          <MemberList
            projectId={projectId}
            members={members}
            actions={canManage ? { changeRole: changeRoleAction, remove: removeMemberAction } : null}
          />
          {canManage && (
            <ActionForm action={addMemberAction} submitLabel="Add member">
              <input type="hidden" name="projectId" value={projectId} />
              <Field label="Email of an existing account" name="email" type="email" />
              <RoleSelect />
            </ActionForm>
          )}
          {canManage && <SsoDefaultRoleForm projectId={projectId} ssoDefaultRole={project.ssoDefaultRole} />}
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
                  <span className="text-xs text-slate-500">
                    Shown on the review screen of every queue (g shows or hides them), before the queue&apos;s own.
                  </span>
                </label>
              </ActionForm>
              <ActionForm
                action={setArchivedAction}
                submitLabel={project.archivedAt ? "Restore project" : "Archive project"}
                variant="secondary"
              >
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

        {roleCan(role, "project.rename") && (
          <Card title="Span labels">
            <SpanLabelsCard projectId={projectId} initial={await readProjectSpanLabels(prisma, access)} />
          </Card>
        )}

        {roleCan(role, "webhooks.manage") && (
          <Card title="Webhooks">
            <WebhooksCard projectId={projectId} />
          </Card>
        )}
      </div>
    </div>
  );
}

/** The role an account created at its first single sign-on gets in this project. */
function SsoDefaultRoleForm({ projectId, ssoDefaultRole }: { projectId: string; ssoDefaultRole: string | null }) {
  return (
    <ActionForm
      action={setSsoDefaultRoleAction}
      submitLabel="Save default role"
      variant="secondary"
      className="mt-6 flex flex-col gap-2 border-t border-slate-100 pt-4"
    >
      <input type="hidden" name="projectId" value={projectId} />
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium text-slate-700">Accounts created by single sign-on join as</span>
        <select
          name="ssoDefaultRole"
          defaultValue={ssoDefaultRole ?? "none"}
          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm"
          data-testid="sso-default-role"
        >
          <option value="none">none (no access)</option>
          <option value="viewer">viewer</option>
          <option value="reviewer">reviewer</option>
          <option value="owner">owner</option>
        </select>
        <span className="text-xs text-slate-500">
          When the site creates accounts at their first single sign-on, each new account becomes a member of this
          project with this role. Existing accounts are added above.
        </span>
      </label>
    </ActionForm>
  );
}
