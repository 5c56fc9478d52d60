import { withActor } from "@/lib/api/handler";
import { ok } from "@/lib/api/openapi/route-builders";
import { meResponseSchema } from "@/lib/api/openapi/responses";

export const GET = withActor(
  {
    summary: "The caller",
    responses: [ok("The caller.", meResponseSchema)],
  },
  async (_request, actor) =>
    Response.json({ id: actor.userId, email: actor.email, name: actor.name, isAdmin: actor.isAdmin }),
);
