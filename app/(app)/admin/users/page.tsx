import { notFound } from "next/navigation";
import { requirePageActor } from "@/app/_server/actor";
import { ActionForm, Field } from "@/components/action-form";
import { Card } from "@/components/empty-state";
import { listUsers } from "@/lib/auth/users";
import { prisma } from "@/lib/db/prisma";
import { createUserAction } from "./actions";
import { UserActions } from "./user-actions";

export default async function UsersPage() {
  const actor = await requirePageActor();
  if (!actor.isAdmin) notFound();
  const users = await listUsers(prisma, actor);
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <p className="text-sm text-slate-500">
          Deactivating an account signs it out at once and revokes its API keys; its judgments stay under its name. Only
          an account that nothing names yet (no judgments, runs, videos…) can be deleted. Accounts that single sign-on
          created while new accounts need approval wait until you approve them (or delete them to refuse).
        </p>
        <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm" data-testid="user-list">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="px-3 py-2">Email</th>
              <th>Name</th>
              <th>Projects</th>
              <th>Created</th>
              <th className="px-3 text-right">Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((user) => (
              <tr key={user.id} className={user.deactivatedAt ? "text-slate-500" : undefined}>
                <td className="px-3 py-2">
                  {user.email} {user.isAdmin && <span className="rounded bg-slate-100 px-1.5 text-xs">admin</span>}
                  {user.deactivatedAt && (
                    <span
                      className="ml-1 rounded bg-amber-100 px-1.5 text-xs text-amber-800"
                      data-testid="deactivated-badge"
                    >
                      deactivated
                    </span>
                  )}
                  {user.approvalPendingSince && (
                    <span className="ml-1 rounded bg-sky-100 px-1.5 text-xs text-sky-800" data-testid="pending-badge">
                      waiting for approval
                    </span>
                  )}
                </td>
                <td>{user.name}</td>
                <td>{user._count.memberships}</td>
                <td>{user.createdAt.toLocaleDateString()}</td>
                <td className="px-3 py-2">
                  <UserActions
                    userId={user.id}
                    email={user.email}
                    deactivated={user.deactivatedAt !== null}
                    pending={user.approvalPendingSince !== null}
                    self={user.id === actor.userId}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Card title="New user">
        <ActionForm action={createUserAction} submitLabel="Create user">
          <Field label="Name" name="name" required={false} />
          <Field label="Email" name="email" type="email" autoComplete="off" />
          <Field label="Initial password" name="password" type="password" autoComplete="new-password" />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="isAdmin" /> Site admin
          </label>
        </ActionForm>
      </Card>
    </div>
  );
}
