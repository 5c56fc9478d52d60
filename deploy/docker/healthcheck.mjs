// The image's HEALTHCHECK (and the Kubernetes worker's liveness probe): in the web role, GET /api/health on PORT (200
// healthy; 503 when the database is unreachable); in the worker role, the liveness file the worker keeps fresh from
// its event loop (scripts/lib/worker-alive.ts; older than a minute: wedged); the other roles have no HTTP server, so
// a running process is a healthy one. FRAMEJURY_ROLE_FILE and WORKER_ALIVE_FILE name other files (tests).
import fs from "node:fs";

/** How old the worker's liveness file may be: six of its writes (every 10 s). */
const WORKER_ALIVE_MAX_AGE_MS = 60_000;

let role = "web";
try {
  role = fs.readFileSync(process.env.FRAMEJURY_ROLE_FILE ?? "/tmp/framejury-role", "utf8").trim();
} catch {
  // The entrypoint has not written it yet: the web role's default.
}
if (role === "worker") {
  try {
    const written = fs.statSync(process.env.WORKER_ALIVE_FILE ?? "/tmp/framejury-worker-alive").mtimeMs;
    process.exit(Date.now() - written <= WORKER_ALIVE_MAX_AGE_MS ? 0 : 1);
  } catch {
    process.exit(1);
  }
}
if (role !== "web") process.exit(0);
const port = process.env.PORT ?? "3000";
try {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
