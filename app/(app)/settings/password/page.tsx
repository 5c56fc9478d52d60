import { requirePageActor } from "@/app/_server/actor";
import { ActionForm, Field } from "@/components/action-form";
import { Card } from "@/components/empty-state";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password";
import { changePasswordAction } from "./actions";

export default async function PasswordPage() {
  const actor = await requirePageActor();
  return (
    <div className="flex max-w-md flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Password</h1>
      <Card title={`Change the password of ${actor.email}`}>
        <ActionForm action={changePasswordAction} submitLabel="Change password">
          <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" />
          <Field
            label={`New password (at least ${PASSWORD_MIN_LENGTH} characters)`}
            name="newPassword"
            type="password"
            autoComplete="new-password"
          />
          <Field label="New password again" name="confirmPassword" type="password" autoComplete="new-password" />
        </ActionForm>
        <p className="mt-3 text-xs text-slate-500">
          Your other sessions end when the password changes. Forgot it? A site admin can reset it.
        </p>
      </Card>
    </div>
  );
}
