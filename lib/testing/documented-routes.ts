import { apiRouteIndex } from "@/app/api/v1/api-route-index.generated";
import * as openApiJsonRoute from "@/app/api/v1/openapi.json/route";

/** TEST TOOL: the routes /api/v1/openapi.json documents: the generated route index, the document's own route in it. */
export const documentedRoutes = apiRouteIndex(openApiJsonRoute);
