import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { updateEndpoint } from "@/lib/judge/endpoints";
import { endpointUpdateSchema } from "@/lib/judge/endpoints.validation";

export const PATCH = withActor<{ endpointId: string }>(async (request, actor, params) =>
  Response.json(await updateEndpoint(prisma, actor, z.string().min(1).max(64).parse(params.endpointId), await parseJsonBody(request, endpointUpdateSchema))),
);
