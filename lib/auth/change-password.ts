import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { prisma } from "../db/prisma";
import { AppError, UnauthorizedError, ValidationError } from "../errors";
import { getAuth } from "./auth";
import { newPasswordSchema } from "./account-lifecycle";
import { PASSWORD_CHANGE_THROTTLED } from "./sign-in-throttle";

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(1024),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(1024),
  })
  .refine((input) => input.newPassword === input.confirmPassword, {
    message: "The two new passwords differ.",
    path: ["confirmPassword"],
  });

/**
 * The signed-in user (the session in `headers`) changes their own password through better-auth's
 * `changePassword`: it checks the current password and hashes the new one with the configured argon2id.
 * Then every other session of the account ends; this one stays (better-auth's own `revokeOtherSessions`
 * would replace it with a new one, whose cookie a server action's re-render does not see yet).
 * The current password is a guess like a sign-in's: the sign-in throttle counts it (per account and
 * address; `headers` carry the address), and refuses it once the limit is reached, even when right.
 */
export async function changeOwnPassword(headers: Headers, input: z.input<typeof changePasswordSchema>): Promise<void> {
  const parsed = changePasswordSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(" "));
  const auth = getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) throw new UnauthorizedError("Your session ended: sign in again.");
  try {
    await auth.api.changePassword({
      body: { currentPassword: parsed.data.currentPassword, newPassword: parsed.data.newPassword },
      headers,
    });
  } catch (error) {
    const code = isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
    if (code === "INVALID_PASSWORD") throw new ValidationError("The current password is wrong.");
    // The sign-in throttle (lib/auth/auth.ts hooks): too many wrong passwords for the account or the address.
    if (code === PASSWORD_CHANGE_THROTTLED.code)
      throw new AppError(429, "too_many_attempts", PASSWORD_CHANGE_THROTTLED.message);
    throw error;
  }
  await prisma.session.deleteMany({ where: { userId: session.user.id, token: { not: session.session.token } } });
}
