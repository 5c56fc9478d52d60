import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { labelNextPlan } from "@/lib/label-next/label-next";
import { z } from "zod";

type Params = { runId: string };

const runIdSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid run id.");

/** `?budget=N&strata=K` (owners): the videos to label next and the accuracy interval now and expected after. */
export const GET = withActor<Params>(async (request, actor, params) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return Response.json(await labelNextPlan(prisma, actor, runIdSchema.parse(params.runId), { budget: query.budget, strata: query.strata }));
});
