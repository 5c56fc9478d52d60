"use server";

import { revalidatePath } from "next/cache";
import { formValues, runAction, type ActionResult } from "@/app/_server/action-result";
import { requireSiteAdmin } from "@/lib/auth/actor";
import { deactivateUser, deleteUser, reactivateUser, resetPassword, userIdSchema } from "@/lib/auth/account-lifecycle";
import { approveUser } from "@/lib/auth/sso-accounts";
import { createUser } from "@/lib/auth/users";
import { prisma } from "@/lib/db/prisma";

export async function createUserAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    requireSiteAdmin(actor);
    const values = formValues(formData);
    const user = await createUser(prisma, {
      email: values.email ?? "",
      password: values.password ?? "",
      name: values.name,
      isAdmin: values.isAdmin === "on",
    });
    revalidatePath("/admin/users");
    return { ok: true, message: `Created ${user.email}.` };
  });
}

function userIdOf(formData: FormData): string {
  return userIdSchema.parse(formValues(formData).userId);
}

/** Sets a generated password, returned once for the admin to hand over; the user's sessions end. */
export async function resetPasswordAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const result = await resetPassword(prisma, actor, userIdOf(formData));
    return { ok: true, message: `New password for ${result.email} (shown once):`, data: { password: result.password } };
  });
}

export async function deactivateUserAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const result = await deactivateUser(prisma, actor, userIdOf(formData));
    revalidatePath("/admin/users");
    return {
      ok: true,
      message: `Deactivated ${result.email}: ${result.sessionsEnded} session(s) ended, ${result.apiKeysRevoked} API key(s) revoked.`,
    };
  });
}

export async function reactivateUserAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const result = await reactivateUser(prisma, actor, userIdOf(formData));
    revalidatePath("/admin/users");
    return { ok: true, message: `Reactivated ${result.email}.` };
  });
}

export async function deleteUserAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const result = await deleteUser(prisma, actor, userIdOf(formData));
    revalidatePath("/admin/users");
    return { ok: true, message: `Deleted ${result.email}.` };
  });
}

/** Lets an account that single sign-on created, waiting for approval (SSO_NEW_ACCOUNTS=approve), sign in. */
export async function approveUserAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const result = await approveUser(prisma, actor, userIdOf(formData));
    revalidatePath("/admin/users");
    return { ok: true, message: `Approved ${result.email}; they can sign in now.` };
  });
}
