import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { listQuestions, questionListQuerySchema } from "@/lib/tasks/qa/qa-results";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?setId=&questionFormat=mc|open&category=&granularity=coarse|fine&videoId=&page=&pageSize=`: one page of the project's questions. */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const query = questionListQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await listQuestions(prisma, actor, projectIdSchema.parse(params.projectId), query));
});
