import { withProject } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { cancelVideoDeletion } from "@/lib/videos/video-deletion-job";
import { ok } from "@/lib/api/openapi/route-builders";

/** Cancels a queued deletion of videos (owners): at once if no worker has taken it, else after its current batch. */
export const POST = withProject(
  "videos.delete",
  {
    summary: "Cancel a queued deletion of videos (owners)",
    description:
      "One no worker has taken ends at once; a running one after its current batch (`cancelRequested`). The videos not deleted yet stay. An ended one → 409.",
    responses: [ok("The deletion.")],
    errors: [409],
  },
  async ({ access, prisma, params }) =>
    Response.json(await cancelVideoDeletion(prisma, access, recordIdSchema.parse(params.deletionId))),
);
