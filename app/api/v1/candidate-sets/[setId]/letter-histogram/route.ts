import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { candidateSetIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { exportOverview } from "@/lib/tasks/construction/export-benchmark";

/** `{curatorsPerQuestion, counts, multipleChoice, histogram}`: how many exported mc questions have each correct letter. */
export const GET = withActor<{ setId: string }>(async (_request, actor, params) => Response.json(await exportOverview(prisma, actor, candidateSetIdSchema.parse(params.setId))));
