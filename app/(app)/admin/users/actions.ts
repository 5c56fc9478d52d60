"use server";

import { revalidatePath } from "next/cache";
import { formValues, runAction, type ActionResult } from "@/app/_server/action-result";
import { requireSiteAdmin } from "@/lib/authz/permissions";
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
