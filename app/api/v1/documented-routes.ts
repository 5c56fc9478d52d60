import { apiRouteIndex } from "./api-route-index.generated";
import * as openApiJsonRoute from "./openapi.json/route";

/**
 * The routes /api/v1/openapi.json documents, its own among them: what the API docs page and the tests build the
 * document from. The openapi.json route hands itself to the index instead, since it cannot import this file back.
 */
export const documentedRoutes = apiRouteIndex(openApiJsonRoute);
