import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getRunStatus } from "@/lib/judge/runs";

export const GET = withActor<{ runId: string }>(async (_request, actor, params) =>
  Response.json(await getRunStatus(prisma, actor, z.string().min(1).max(64).parse(params.runId))),
);
