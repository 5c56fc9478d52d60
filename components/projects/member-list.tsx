import { ActionForm, RoleSelect } from "@/components/action-form";
import type { ActionResult } from "@/lib/api/action-result";

type FormAction = (previous: ActionResult | null, formData: FormData) => Promise<ActionResult>;

export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  role: string;
}

/**
 * The project's members, one row each: name and email (whole, wrapping where long), and for owners (`actions`) the
 * role to set and the way out.
 */
export function MemberList({
  projectId,
  members,
  actions,
}: {
  projectId: string;
  members: readonly MemberRow[];
  /** The owner's actions on a member; null: the roles are shown only. */
  actions: { changeRole: FormAction; remove: FormAction } | null;
}) {
  return (
    <ul className="mb-4 divide-y divide-slate-100" data-testid="member-list">
      {members.map((member) => (
        <li key={member.userId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
          {/* Never cut off: the email wraps, and the forms go under it when the row is narrow. */}
          <div className="min-w-48 flex-1">
            <div className="break-words">{member.name}</div>
            <div className="break-all text-slate-500" title={member.email} data-testid="member-email">
              {member.email}
            </div>
          </div>
          {actions ? (
            <>
              <ActionForm
                action={actions.changeRole}
                submitLabel="Set role"
                variant="secondary"
                className="flex items-end gap-2"
              >
                <input type="hidden" name="projectId" value={projectId} />
                <input type="hidden" name="userId" value={member.userId} />
                <RoleSelect defaultValue={member.role} />
              </ActionForm>
              <ActionForm
                action={actions.remove}
                submitLabel="Remove"
                variant="danger"
                className="flex items-end gap-2"
              >
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
  );
}
