import { withActor } from "@/lib/api/handler";
import { createApiKey, createApiKeySchema, listApiKeys } from "@/lib/auth/api-keys";
import { ok, created } from "@/lib/api/openapi/route-builders";

export const GET = withActor(
  {
    summary: "The caller's API keys",
    description: "Never the keys themselves: only their names, prefixes and dates.",
    responses: [ok("`{apiKeys: [...]}`.")],
  },
  async (_request, actor, _params, _input, prisma) =>
    Response.json({ apiKeys: await listApiKeys(prisma, actor.userId) }),
);

export const POST = withActor(
  {
    summary: "Create an API key",
    description: "The answer holds the key, shown this once; only a hash is stored.",
    body: { kind: "json", schema: createApiKeySchema },
    responses: [created("The new key, with its secret.")],
  },
  async (_request, actor, _params, { body }, prisma) => {
    const { name } = body;
    return Response.json(await createApiKey(prisma, actor.userId, name), { status: 201 });
  },
);
