import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { listQuestions, questionListQuerySchema } from "@/lib/tasks/qa/qa-results";
import { ok } from "@/lib/api/openapi/route-builders";

/** `?setId=&questionFormat=mc|open&category=&granularity=coarse|fine&videoId=&page=&pageSize=`: one page of the project's questions. */
export const GET = withProject(
  "project.view",
  {
    summary: "One page of the project's questions",
    query: questionListQuerySchema,
    responses: [ok("`{total, page, pageSize, items}`.")],
  },
  async ({ actor, project, query }) => Response.json(await listQuestions(prisma, actor, project.id, query)),
);
