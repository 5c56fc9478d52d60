import { withActor } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";

export const DELETE = withActor<{ keyId: string }>(async (_request, actor, params) => {
  await revokeApiKey(prisma, actor.userId, recordIdSchema.parse(params.keyId));
  return new Response(null, { status: 204 });
});
