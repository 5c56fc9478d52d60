"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/app/_server/action-result";
import { buttonClass } from "@/components/class-names";
import {
  approveUserAction,
  deactivateUserAction,
  deleteUserAction,
  reactivateUserAction,
  resetPasswordAction,
} from "./actions";

type FormAction = (previous: ActionResult | null, formData: FormData) => Promise<ActionResult>;

/** One account's actions on the Users page: approve (a pending SSO account), reset password (shown once), deactivate or reactivate, delete. */
export function UserActions({
  userId,
  email,
  deactivated,
  pending,
  self,
}: {
  userId: string;
  email: string;
  deactivated: boolean;
  pending: boolean;
  self: boolean;
}) {
  return (
    <div className="flex flex-col items-end gap-1" data-testid={`user-actions-${email}`}>
      <div className="flex flex-wrap justify-end gap-1.5">
        {pending && <UserActionButton userId={userId} action={approveUserAction} label="Approve" />}
        <UserActionButton
          userId={userId}
          action={resetPasswordAction}
          label="Reset password"
          confirmText={`Set a new password for ${email} and sign them out everywhere?`}
        />
        {!self &&
          (deactivated ? (
            <UserActionButton userId={userId} action={reactivateUserAction} label="Reactivate" />
          ) : (
            <UserActionButton
              userId={userId}
              action={deactivateUserAction}
              label="Deactivate"
              variant="danger"
              confirmText={`Deactivate ${email}? They are signed out at once and their API keys are revoked; their judgments stay.`}
            />
          ))}
        {!self && (
          <UserActionButton
            userId={userId}
            action={deleteUserAction}
            label="Delete"
            variant="danger"
            confirmText={`Delete ${email}? Only an account with no judgments or other records can be deleted.`}
          />
        )}
      </div>
    </div>
  );
}

function UserActionButton({
  userId,
  action,
  label,
  variant = "secondary",
  confirmText,
}: {
  userId: string;
  action: FormAction;
  label: string;
  variant?: "secondary" | "danger";
  confirmText?: string;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (confirmText && !window.confirm(confirmText)) event.preventDefault();
      }}
      className="flex max-w-xs flex-col items-end gap-1"
    >
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" disabled={pending} className={buttonClass(variant)}>
        {pending ? "Working…" : label}
      </button>
      {result && !result.ok && (
        <p role="alert" data-testid="form-error" className="text-right text-xs text-red-700">
          {result.error}
        </p>
      )}
      {result?.ok && result.message && (
        <p role="status" className="text-right text-xs text-emerald-700">
          {result.message}
        </p>
      )}
      {result?.ok && result.data?.password && (
        <code data-testid="new-password" className="select-all rounded bg-emerald-50 px-2 py-1 font-mono text-xs">
          {result.data.password}
        </code>
      )}
    </form>
  );
}
