import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { applyMetadataSchema, applyMetadataToVideos } from "@/lib/videos/apply-metadata";

/**
 * Metadata rows (and, with `promptLists`, the project's prompt lists) applied to videos already
 * imported (owners): a dry run by default; overwriting a value already set needs `confirmOverwrites`.
 */
export const POST = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) =>
  Response.json(await applyMetadataToVideos(prisma, actor, project.id, await parseJsonBody(request, applyMetadataSchema))),
);
