import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { listQuestions, questionListQuerySchema } from "@/lib/tasks/qa/qa-results";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?setId=&questionFormat=mc|open&category=&granularity=coarse|fine&videoId=&page=&pageSize=`: one page of the project's questions. */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const query = questionListQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await listQuestions(prisma, actor, project.id, query));
});
