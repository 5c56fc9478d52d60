import { endpointScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { testEndpoint } from "@/lib/judge/endpoint-test";

/** Owners test an endpoint: one small image and a short question, then a probe of what it can do (stored on it); the outcome, never the key. Leaving the page cancels the probe. */
export const POST = withProjectOf(endpointScope, "project.view", async ({ actor, record, request }) => Response.json(await testEndpoint(prisma, actor, record.id, { signal: request.signal })));
