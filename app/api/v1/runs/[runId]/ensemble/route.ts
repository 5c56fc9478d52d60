import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { ensembleRunReport } from "@/lib/ensembles/ensemble-report";

/** An ensemble run's members with their cost, and per target the members' agreement (α) and unstable count; `{ensemble: null}` for a plain run. */
export const GET = withProjectOf(runScope(), "project.view", async ({ actor, record }) => Response.json({ ensemble: await ensembleRunReport(prisma, actor, record.id) }));
