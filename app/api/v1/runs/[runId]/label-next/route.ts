import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { labelNextPlan } from "@/lib/label-next/label-next";
import { labelNextRunIdSchema } from "@/lib/label-next/label-next.validation";

type Params = { runId: string };

/** `?budget=N&strata=K` (owners): the videos to label next and the accuracy interval now and expected after. */
export const GET = withActor<Params>(async (request, actor, params) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return Response.json(await labelNextPlan(prisma, actor, labelNextRunIdSchema.parse(params.runId), { budget: query.budget, strata: query.strata }));
});
