import { itemLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { questionDetail } from "@/lib/tasks/qa/visible-qa-results";
import { itemIdSchema } from "@/lib/items/items.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** One question with every QA run that answered it: the frames the model saw, its raw answer, the letter or the judge's decision and reason. */
export const GET = withProjectOf(
  itemLookup("questionId", "No such question."),
  "project.view",
  {
    summary: "One question with every QA run that answered it",
    params: { questionId: itemIdSchema },
    responses: [ok("The question.")],
  },
  async ({ access, record }) => Response.json(await questionDetail(prisma, access, record.id)),
);
