import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { ensembleRunReport } from "@/lib/ensembles/ensemble-report";
import { recordIdSchema } from "@/lib/validation/ids";

/** An ensemble run's members with their cost, and per target the members' agreement (α) and unstable count; `{ensemble: null}` for a plain run. */
export const GET = withActor<{ runId: string }>(async (_request, actor, params) => Response.json({ ensemble: await ensembleRunReport(prisma, actor, recordIdSchema.parse(params.runId)) }));
