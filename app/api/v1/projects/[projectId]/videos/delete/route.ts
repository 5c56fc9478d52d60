import { withProject } from "@/lib/api/with-project";
import { appDeletionQueue } from "@/lib/deletions/deletion-queues";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteVideos, deleteVideosSchema } from "@/lib/videos/delete-videos";
import { ok, accepted } from "@/lib/api/openapi/route-builders";

/**
 * Deletes the chosen videos with what depends on them (owners); `{"dryRun": true}` only counts it. Up to 200 are
 * deleted here (200); more are queued for a worker (202, with the deletion to follow).
 */
export const POST = withProject(
  "videos.delete",
  {
    summary: "Delete up to 5,000 videos with what depends on them (owners)",
    description:
      "Up to 200 are deleted in the request; more are checked and counted, then deleted by a worker in batches (202: follow `deletion` at video-deletions/{deletionId}).",
    body: { kind: "json", schema: deleteVideosSchema },
    responses: [
      ok("`{dryRun, counts, storage, deletion: null}`."),
      accepted("`{dryRun: false, counts, storage: null, deletion}`: the deletion, queued."),
    ],
    errors: [409],
  },
  async ({ access, body }) => {
    const result = await deleteVideos({ ...appDeps(), deletions: appDeletionQueue("videos") }, access, body);
    return Response.json(result, { status: result.deletion ? 202 : 200 });
  },
);
