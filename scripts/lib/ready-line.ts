/**
 * What `npm start` says once the web server answers. Started by `npm run demo`, the app is up minutes before the demo
 * project is seeded, and the demo prints the account to sign in with when it is: the line says to wait for that
 * instead of inviting a sign-in to an empty app with credentials not shown yet.
 */
export function readyLine(app: { address: string; anyUser: boolean; startedBy: string }): string {
  if (app.startedBy === "npm run demo")
    return `FrameJury is up at ${app.address}; the demo is seeding its project and prints where to sign in when it is done. Ctrl-C stops it.`;
  const next = app.anyUser ? "open it and sign in" : "open it to create the admin account";
  return `FrameJury is ready at ${app.address} — ${next}. Ctrl-C stops it.`;
}
