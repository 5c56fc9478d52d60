import Link from "next/link";

export const dynamic = "force-dynamic";

/**
 * Where single sign-on lands a person whose account waits for a site admin's approval (SSO_NEW_ACCOUNTS=approve,
 * lib/auth/sso-accounts.ts): the account exists but gets no session, so this page needs none.
 */
export default function WaitingForApprovalPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">FrameJury</h1>
      </div>
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="waiting-for-approval">
        <h2 className="mb-2 font-semibold">Waiting for an administrator</h2>
        <p className="text-sm text-slate-600">
          Single sign-on worked and your FrameJury account is created, but an administrator has to approve it before you
          can use FrameJury. Ask your FrameJury administrator, then sign in again.
        </p>
        <p className="mt-4 text-sm">
          <Link href="/sign-in" className="text-sky-700 underline">
            Back to sign-in
          </Link>
        </p>
      </section>
    </main>
  );
}
