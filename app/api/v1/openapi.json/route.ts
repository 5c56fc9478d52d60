import { withoutActor } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi/document";
import { ok } from "@/lib/api/openapi/route-builders";
import type { RouteModuleEntry } from "@/lib/api/openapi/route-spec";
import { apiRouteIndex } from "../api-route-index.generated";

export const dynamic = "force-dynamic";

// No auth, unlike the rest of /api/v1: the document describes the API's routes and schemas, which the
// README publishes too, and holds no data or secrets; clients and code generators fetch it before they
// have a key. A NUL in the query is refused as on every /api/v1 route.
export const GET = withoutActor(
  {
    summary: "This OpenAPI 3.1 document",
    description:
      "Public: the document describes the API and holds no data or secrets. Covers /api/v1 only; /api/auth/* (better-auth), /api/health and /api/metrics are described in the README.",
    responses: [ok("The OpenAPI 3.1 document.")],
  },
  async () => Response.json(openApiDocument(documentedRoutes), { headers: { "cache-control": "public, max-age=300" } }),
);

// This route is in the index it serves: the index cannot import this file back (a circle), so it is handed in.
const documentedRoutes: RouteModuleEntry[] = apiRouteIndex({ GET });
