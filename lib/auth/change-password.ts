import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { ValidationError } from "../errors";
import { getAuth } from "./auth";
import { newPasswordSchema } from "./account-lifecycle";

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(1024),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(1024),
  })
  .refine((input) => input.newPassword === input.confirmPassword, { message: "The two new passwords differ.", path: ["confirmPassword"] });

/**
 * The signed-in user (the session in `headers`) changes their own password through better-auth's
 * `changePassword`: it checks the current password and hashes the new one with the configured argon2id.
 * Every other session of the account ends; this one gets a fresh session (its cookie is set by
 * better-auth's nextCookies plugin when called from a server action).
 */
export async function changeOwnPassword(headers: Headers, input: z.input<typeof changePasswordSchema>): Promise<void> {
  const parsed = changePasswordSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(" "));
  try {
    await getAuth().api.changePassword({
      body: { currentPassword: parsed.data.currentPassword, newPassword: parsed.data.newPassword, revokeOtherSessions: true },
      headers,
    });
  } catch (error) {
    if (isAPIError(error) && (error.body as { code?: string } | undefined)?.code === "INVALID_PASSWORD") {
      throw new ValidationError("The current password is wrong.");
    }
    throw error;
  }
}
