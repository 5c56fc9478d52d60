import { parseJsonBody } from "@/lib/api/handler";
import { judgmentScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { withdrawJudgment } from "@/lib/reviews/reviews";
import { withdrawInputSchema } from "@/lib/reviews/reviews.validation";

/** Withdraws the caller's own judgment: `{"expectedVersion"}`; kept in history, it counts nowhere until saved again. */
export const DELETE = withProjectOf(judgmentScope, "project.view", async ({ actor, record, request }) => {
  const judgment = await withdrawJudgment(prisma, actor, record.id, await parseJsonBody(request, withdrawInputSchema));
  return Response.json({ id: judgment.id, withdrawn: judgment.withdrawn, version: judgment.version, updatedAt: judgment.updatedAt });
});
