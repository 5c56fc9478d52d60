import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { applyMetadataSchema, applyMetadataToVideos } from "@/lib/videos/apply-metadata";
import { ok } from "@/lib/api/openapi/route-builders";

/**
 * Metadata rows (and, with `promptLists`, the project's prompt lists) applied to videos already
 * imported (owners): a dry run by default; overwriting a value already set needs `confirmOverwrites`.
 */
export const POST = withProject(
  "project.view",
  {
    summary: "Apply metadata rows (and prompt lists) to videos already imported (owners)",
    description: "A dry run by default; overwriting a value already set needs `confirmOverwrites`, else 409 overwrite_unconfirmed.",
    body: { kind: "json", schema: applyMetadataSchema },
    responses: [ok("`{dryRun, matchedVideos, changes, overwrites, unmatchedRows, unmatchedRowCount, applied}`.")],
    errors: [409],
  },
  async ({ actor, project, body }) => Response.json(await applyMetadataToVideos(prisma, actor, project.id, body)),
);
