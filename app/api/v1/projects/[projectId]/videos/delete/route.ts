import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteVideos, deleteVideosSchema } from "@/lib/videos/delete-videos";

/** Deletes the chosen videos with what depends on them (owners); `{"dryRun": true}` only counts it. */
export const POST = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) =>
  Response.json(await deleteVideos(appDeps(), actor, project.id, await parseJsonBody(request, deleteVideosSchema))),
);
