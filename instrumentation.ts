// Runs once when a Next.js server starts, before it handles a request: builds the application context (the composition
// root, lib/app-context/app-context.ts), so a broken task catalogue stops the start. Node.js only: the task modules are
// server code. Each bundle's route wrappers and page helpers build their own copy's context on their first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") (await import("./lib/app-context/app-context")).appContext();
}
