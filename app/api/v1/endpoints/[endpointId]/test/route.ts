import { endpointScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { testEndpoint } from "@/lib/judge/endpoint-test";

/** Owners test an endpoint: one small image and a short question; the outcome, never the key. */
export const POST = withProjectOf(endpointScope, "project.view", async ({ actor, record }) => Response.json(await testEndpoint(prisma, actor, record.id)));
