import { redirect } from "next/navigation";
import { getPageActor } from "@/app/_server/actor";
import { ActionForm, Field } from "@/components/action-form";
import { hasAnyUser } from "@/lib/auth/users";
import { prisma } from "@/lib/db/prisma";
import { ssoButtons, ssoConfig, ssoErrorMessage } from "@/lib/auth/sso";
import { createFirstAdminAction, signInAction, ssoSignInAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  if (await getPageActor()) redirect("/");
  const firstRun = !(await hasAnyUser(prisma));
  const config = ssoConfig();
  const sso = ssoButtons(config);
  // better-auth sends a failed SSO sign-in back here with ?error=<code>.
  const ssoError = (await searchParams).error;
  // An account single sign-on created that waits for a site admin (lib/auth/sso-accounts.ts) has its own page.
  if (typeof ssoError === "string" && ssoError.toLowerCase() === "account_pending") redirect("/sign-in/pending");
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">FrameJury</h1>
        <p className="text-sm text-slate-500">Judge videos with vision LLMs; check the judges with humans.</p>
      </div>
      {firstRun && !config.passwordSignIn ? (
        <section
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
          data-testid="first-run-password-off"
        >
          <h2 className="mb-1 font-semibold">Create the admin account</h2>
          <p className="text-sm text-slate-500">
            FrameJury has no users yet, and password sign-in is turned off (PASSWORD_SIGN_IN=off). Create the site admin
            with the email the identity provider gives you:{" "}
            <code className="text-xs">npm run cli -- create-user --email you@lab.example --password … --admin</code> (or
            set ADMIN_EMAIL and ADMIN_PASSWORD), then sign in with single sign-on here.
          </p>
        </section>
      ) : firstRun ? (
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 className="mb-1 font-semibold">Create the admin account</h2>
          <p className="mb-4 text-sm text-slate-500">
            FrameJury has no users yet. The first account is the site admin, who creates the other accounts.
          </p>
          <ActionForm action={createFirstAdminAction} submitLabel="Create admin and sign in">
            <Field label="Name" name="name" required={false} autoComplete="name" />
            <Field label="Email" name="email" type="email" autoComplete="email" />
            <Field
              label="Password (at least 8 characters)"
              name="password"
              type="password"
              autoComplete="new-password"
            />
          </ActionForm>
        </section>
      ) : (
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 className="mb-4 font-semibold">Sign in</h2>
          {typeof ssoError === "string" && (
            <p
              className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
              role="alert"
              data-testid="sso-error"
            >
              {ssoErrorMessage(ssoError.slice(0, 100))}
            </p>
          )}
          {config.passwordSignIn && (
            <ActionForm action={signInAction} submitLabel="Sign in">
              <Field label="Email" name="email" type="email" autoComplete="email" />
              <Field label="Password" name="password" type="password" autoComplete="current-password" />
            </ActionForm>
          )}
          {sso.length > 0 && (
            <div
              className={
                config.passwordSignIn
                  ? "mt-4 flex flex-col gap-2 border-t border-slate-100 pt-4"
                  : "flex flex-col gap-2"
              }
              data-testid="sso-buttons"
            >
              {sso.map((button) => (
                <ActionForm
                  key={button.providerId}
                  action={ssoSignInAction}
                  submitLabel={button.label}
                  variant="secondary"
                >
                  <input type="hidden" name="providerId" value={button.providerId} />
                </ActionForm>
              ))}
            </div>
          )}
        </section>
      )}
    </main>
  );
}
