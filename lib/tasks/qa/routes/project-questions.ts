import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { questionListQuerySchema } from "@/lib/tasks/qa/qa-query";
import { listQuestions } from "@/lib/tasks/qa/qa-questions";
import { ok } from "@/lib/api/openapi/route-builders";

/** `?setId=&questionFormat=mc|open&category=&granularity=coarse|fine&videoId=&page=&pageSize=`: one page of the project's questions. */
export const GET = withProject(
  "project.view",
  {
    summary: "One page of the project's questions",
    query: questionListQuerySchema,
    responses: [ok("`{total, page, pageSize, items}`.")],
  },
  async ({ access, query }) => Response.json(await listQuestions(prisma, access, query)),
);
