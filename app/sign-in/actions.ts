"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { formValues, type ActionResult } from "@/app/_server/action-result";
import { getAuth } from "@/lib/auth/auth";
import { createFirstAdmin } from "@/lib/auth/users";
import { prisma } from "@/lib/db/prisma";
import { isAppError } from "@/lib/errors";
import { log } from "@/lib/observability/logger";
import { ssoButtons, ssoConfig } from "@/lib/auth/sso";
import { firstAdminSchema, signInSchema, ssoSignInSchema } from "./actions.validation";

// One message for every failure, so the form never tells whether an email has an account.
const SIGN_IN_FAILED = "Wrong email or password.";
const PASSWORD_OFF = "Password sign-in is turned off here; sign in with single sign-on.";

export async function signInAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  // better-auth refuses it too (lib/auth/auth.ts); this only says so in words.
  if (!ssoConfig().passwordSignIn) return { ok: false, error: PASSWORD_OFF };
  const parsed = signInSchema.safeParse(formValues(formData));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  try {
    await getAuth().api.signInEmail({ body: parsed.data, headers: await headers() });
  } catch {
    return { ok: false, error: SIGN_IN_FAILED };
  }
  redirect("/");
}

/** Starts a single sign-on: better-auth answers the provider's authorization URL (with state and PKCE cookies set). */
export async function ssoSignInAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const parsed = ssoSignInSchema.safeParse(formValues(formData));
  if (!parsed.success || !ssoButtons().some((b) => b.providerId === parsed.data.providerId))
    return { ok: false, error: "That sign-in method is not configured." };
  let url: string | undefined;
  try {
    const answer = await getAuth().api.signInSocial({
      body: { provider: parsed.data.providerId, callbackURL: "/", errorCallbackURL: "/sign-in" },
      headers: await headers(),
    });
    url = "url" in answer ? answer.url : undefined;
  } catch (error) {
    log().error({ err: error, providerId: parsed.data.providerId }, "single sign-on could not start");
  }
  if (!url)
    return {
      ok: false,
      error:
        "Single sign-on could not start: the identity provider did not answer. Try again, or sign in with your password.",
    };
  redirect(url);
}

export async function createFirstAdminAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  // The admin could not sign in with the password just chosen; the page says to use the CLI instead.
  if (!ssoConfig().passwordSignIn) return { ok: false, error: PASSWORD_OFF };
  const parsed = firstAdminSchema.safeParse(formValues(formData));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  try {
    await createFirstAdmin(prisma, parsed.data);
    await getAuth().api.signInEmail({
      body: { email: parsed.data.email, password: parsed.data.password },
      headers: await headers(),
    });
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message };
    log().error({ err: error }, "first admin creation failed");
    return { ok: false, error: "Could not create the admin account." };
  }
  redirect("/");
}

export async function signOutAction(): Promise<void> {
  await getAuth()
    .api.signOut({ headers: await headers() })
    .catch(() => {});
  redirect("/sign-in");
}
