import { errorResponse, rejectNulBytesInUrl } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi/document";
import { observed } from "@/lib/observability/http";

export const dynamic = "force-dynamic";

// No auth, unlike the rest of /api/v1: the document describes the API's routes and schemas, which the
// README publishes too, and holds no data or secrets; clients and code generators fetch it before they
// have a key. A NUL in the query is refused as on every /api/v1 route.
export const GET = observed(async (request: Request) => {
  try {
    rejectNulBytesInUrl(request, {});
    return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
  } catch (error) {
    return errorResponse(error);
  }
});
