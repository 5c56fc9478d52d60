// Runs once when a Next.js server starts, before it handles a request: the task registry installs the task modules
// the core reads (lib/task-modules/installed-task-modules.ts). Node.js only: the modules are server code.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./lib/tasks/modules");
}
