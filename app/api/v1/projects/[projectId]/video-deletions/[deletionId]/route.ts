import { withProject } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { getVideoDeletion } from "@/lib/videos/video-deletion-job";
import { ok } from "@/lib/api/openapi/route-builders";

/** A queued deletion of videos and its progress (owners). */
export const GET = withProject(
  "videos.delete",
  {
    summary: "A queued deletion of videos and its progress (owners)",
    responses: [
      ok(
        "`{id, projectId, status: queued|running|done|cancelled, counts, videosTotal, videosDeleted, storageRemoved, cancelRequested, error, createdAt, finishedAt}`.",
      ),
    ],
  },
  async ({ access, prisma, params }) =>
    Response.json(await getVideoDeletion(prisma, access, recordIdSchema.parse(params.deletionId))),
);
