import { withActor } from "@/lib/api/handler";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { appDeps } from "@/lib/videos/app-deps";
import { projectCompleteness } from "@/lib/videos/prompt-list-store";

export const GET = withActor<{ projectId: string }>(async (_request, actor, params) =>
  Response.json(await projectCompleteness(appDeps(), actor, projectIdSchema.parse(params.projectId))),
);
