import { parseJsonBody, withActor } from "@/lib/api/handler";
import { createApiKey, createApiKeySchema, listApiKeys } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";

export const GET = withActor(async (_request, actor) => Response.json({ apiKeys: await listApiKeys(prisma, actor.userId) }));

export const POST = withActor(async (request, actor) => {
  const { name } = await parseJsonBody(request, createApiKeySchema);
  return Response.json(await createApiKey(prisma, actor.userId, name), { status: 201 });
});
