import { checkDatabase, healthThresholdsFromEnv } from "@/lib/db/health";
import { observed } from "@/lib/observability/http";

export const dynamic = "force-dynamic";

// No auth: load balancers and the start script poll this. A slow database answers 200 (the web server can still
// serve what it has; taking it out of rotation would not make the database faster); an unreachable one 503.
export const GET = observed(
  async () => {
    const health = await checkDatabase(process.env.DATABASE_URL, healthThresholdsFromEnv());
    return Response.json(
      { status: health.db === "ok" ? "ok" : "degraded", ...health },
      { status: health.db === "down" ? 503 : 200 },
    );
  },
  { quiet: true },
);
