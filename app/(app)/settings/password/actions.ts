"use server";

import { headers } from "next/headers";
import { formValues, runAction, type ActionResult } from "@/app/_server/action-result";
import { changeOwnPassword } from "@/lib/auth/change-password";

export async function changePasswordAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const values = formValues(formData);
    await changeOwnPassword(await headers(), {
      currentPassword: values.currentPassword ?? "",
      newPassword: values.newPassword ?? "",
      confirmPassword: values.confirmPassword ?? "",
    });
    return { ok: true, message: "Password changed. Your other sessions were signed out." };
  });
}
