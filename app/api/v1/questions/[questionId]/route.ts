import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { itemIdSchema } from "@/lib/items/items.validation";
import { questionDetail } from "@/lib/tasks/qa/visible-qa-results";

/** One question with every QA run that answered it: the frames the model saw, its raw answer, the letter or the judge's decision and reason. */
export const GET = withActor<{ questionId: string }>(async (_request, actor, params) => Response.json(await questionDetail(prisma, actor, itemIdSchema.parse(params.questionId))));
