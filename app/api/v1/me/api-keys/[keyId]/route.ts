import { withActor } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { recordIdSchema } from "@/lib/validation/ids";
import { noContent } from "@/lib/api/openapi/route-builders";

export const DELETE = withActor(
  {
    summary: "Revoke one of the caller's API keys",
    responses: [noContent("Revoked.")],
  },
  async (_request, actor, params, _input, prisma) => {
    await revokeApiKey(prisma, actor.userId, recordIdSchema.parse(params.keyId));
    return new Response(null, { status: 204 });
  },
);
