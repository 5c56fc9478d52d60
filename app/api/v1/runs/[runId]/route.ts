import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { getRunStatus } from "@/lib/judge/runs";

export const GET = withProjectOf(runScope(), "project.view", async ({ actor, record }) => Response.json(await getRunStatus(prisma, actor, record.id)));
