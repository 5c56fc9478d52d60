import { databaseIsUp } from "@/lib/db/health";
import { observed } from "@/lib/observability/http";

export const dynamic = "force-dynamic";

// No auth: load balancers and the start script poll this.
export const GET = observed(
  async () => {
    const up = await databaseIsUp(process.env.DATABASE_URL);
    return Response.json({ status: up ? "ok" : "degraded", db: up ? "ok" : "down" }, { status: up ? 200 : 503 });
  },
  { quiet: true },
);
