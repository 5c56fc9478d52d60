import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { exportOverview } from "@/lib/tasks/construction/export-benchmark";
import { candidateSetScope } from "@/lib/tasks/construction/project-scopes";

/** `{curatorsPerQuestion, counts, multipleChoice, histogram}`: how many exported mc questions have each correct letter. */
export const GET = withProjectOf(candidateSetScope, "project.view", async ({ actor, record }) => Response.json(await exportOverview(prisma, actor, record.id)));
