import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { cancelVideoDeletion } from "@/lib/videos/video-deletion-job";

/** Cancels a queued deletion of videos (owners): at once if no worker has taken it, else after its current batch. */
export const POST = withProject<{ projectId: string; deletionId: string }>("project.view", async ({ actor, project, params }) =>
  Response.json(await cancelVideoDeletion(prisma, actor, project.id, recordIdSchema.parse(params.deletionId))),
);
