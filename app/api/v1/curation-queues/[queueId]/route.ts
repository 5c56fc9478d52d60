import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getCurationQueue } from "@/lib/tasks/construction/curation-queues";
import { curationQueueIdSchema } from "@/lib/tasks/construction/curation-queues.validation";

/** The queue with its progress (candidates, complete, decisions, the caller's), status counts and curator agreement. */
export const GET = withActor<{ queueId: string }>(async (_request, actor, params) => Response.json(await getCurationQueue(prisma, actor, curationQueueIdSchema.parse(params.queueId))));
