// The image's HEALTHCHECK: in the web role, GET /api/health on PORT (200 healthy; 503 when the database is
// unreachable); the other roles have no HTTP server, so a running process is a healthy one.
import fs from "node:fs";

let role = "web";
try {
  role = fs.readFileSync("/tmp/framejury-role", "utf8").trim();
} catch {
  // The entrypoint has not written it yet: the web role's default.
}
if (role !== "web") process.exit(0);
const port = process.env.PORT ?? "3000";
try {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
