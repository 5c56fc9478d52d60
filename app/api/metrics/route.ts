import { jsonError } from "@/lib/api/handler";
import { appContext } from "@/lib/app-context/app-context";
import { observed } from "@/lib/observability/http";
import { metricsAccess, renderMetrics } from "@/lib/observability/metrics";

export const dynamic = "force-dynamic";

// Prometheus scrapes this with `Authorization: Bearer $METRICS_TOKEN`; without METRICS_TOKEN it does not exist.
export const GET = observed(
  async (request: Request) => {
    const access = metricsAccess(request.headers.get("authorization"), process.env.METRICS_TOKEN);
    if (access === "disabled") return jsonError(404, "not_found", "Not found.");
    if (access === "unauthorized") {
      const response = jsonError(401, "unauthorized", "GET /api/metrics needs Authorization: Bearer <METRICS_TOKEN>.");
      response.headers.set("www-authenticate", 'Bearer realm="metrics"');
      return response;
    }
    const { contentType, body } = await renderMetrics(appContext().prisma);
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
  { quiet: true },
);
