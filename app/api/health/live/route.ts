import { observed } from "@/lib/observability/http";

export const dynamic = "force-dynamic";

// Liveness: 200 while the web server answers at all. It reads no database, so an outage of PostgreSQL (which
// /api/health reports as 503, taking the server out of rotation) does not make an orchestrator restart every web
// server; a restart would not bring the database back.
export const GET = observed(async () => Response.json({ status: "ok" }), { quiet: true });
