import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { appDeletionQueue } from "@/lib/deletions/deletion-queues";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteVideos, deleteVideosSchema } from "@/lib/videos/delete-videos";

/**
 * Deletes the chosen videos with what depends on them (owners); `{"dryRun": true}` only counts it. Up to 200 are
 * deleted here (200); more are queued for a worker (202, with the deletion to follow).
 */
export const POST = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const result = await deleteVideos({ ...appDeps(), deletions: appDeletionQueue("videos") }, actor, project.id, await parseJsonBody(request, deleteVideosSchema));
  return Response.json(result, { status: result.deletion ? 202 : 200 });
});
