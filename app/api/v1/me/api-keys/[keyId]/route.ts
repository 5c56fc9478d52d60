import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";

export const DELETE = withActor<{ keyId: string }>(async (_request, actor, params) => {
  await revokeApiKey(prisma, actor.userId, z.string().min(1).max(64).parse(params.keyId));
  return new Response(null, { status: 204 });
});
