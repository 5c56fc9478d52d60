import { parseJsonBody, withActor } from "@/lib/api/handler";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteVideos, deleteVideosSchema } from "@/lib/videos/delete-videos";

/** Deletes the chosen videos with what depends on them (owners); `{"dryRun": true}` only counts it. */
export const POST = withActor<{ projectId: string }>(async (request, actor, params) =>
  Response.json(await deleteVideos(appDeps(), actor, projectIdSchema.parse(params.projectId), await parseJsonBody(request, deleteVideosSchema))),
);
