import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { getVideoDeletion } from "@/lib/videos/video-deletion-job";

/** A queued deletion of videos and its progress (owners). */
export const GET = withProject<{ projectId: string; deletionId: string }>("project.view", async ({ actor, project, params }) =>
  Response.json(await getVideoDeletion(prisma, actor, project.id, recordIdSchema.parse(params.deletionId))),
);
