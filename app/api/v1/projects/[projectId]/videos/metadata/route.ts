import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { applyMetadataSchema, applyMetadataToVideos } from "@/lib/videos/apply-metadata";

/**
 * Metadata rows (and, with `promptLists`, the project's prompt lists) applied to videos already
 * imported (owners): a dry run by default; overwriting a value already set needs `confirmOverwrites`.
 */
export const POST = withActor<{ projectId: string }>(async (request, actor, params) =>
  Response.json(await applyMetadataToVideos(prisma, actor, projectIdSchema.parse(params.projectId), await parseJsonBody(request, applyMetadataSchema))),
);
