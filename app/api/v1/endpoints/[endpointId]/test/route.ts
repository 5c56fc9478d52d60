import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { endpointIdSchema } from "@/lib/judge/endpoint-lifecycle";
import { testEndpoint } from "@/lib/judge/endpoint-test";

/** Owners test an endpoint: one small image and a short question; the outcome, never the key. */
export const POST = withActor<{ endpointId: string }>(async (_request, actor, params) => Response.json(await testEndpoint(prisma, actor, endpointIdSchema.parse(params.endpointId))));
