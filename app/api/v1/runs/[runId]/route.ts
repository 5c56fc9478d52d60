import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getRunStatus } from "@/lib/judge/runs";
import { recordIdSchema } from "@/lib/validation/ids";

export const GET = withActor<{ runId: string }>(async (_request, actor, params) => Response.json(await getRunStatus(prisma, actor, recordIdSchema.parse(params.runId))));
