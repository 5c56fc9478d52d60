import { withProject } from "@/lib/api/with-project";
import { applyMetadataSchema, applyMetadataToVideos } from "@/lib/videos/apply-metadata";
import { ok } from "@/lib/api/openapi/route-builders";

/**
 * Metadata rows (and, with `promptLists`, the project's prompt lists) applied to videos already
 * imported (owners): a dry run by default; overwriting a value already set needs `confirmOverwrites`.
 */
export const POST = withProject(
  "videos.edit",
  {
    summary: "Apply metadata rows (and prompt lists) to videos already imported (owners)",
    description:
      "A dry run by default; overwriting a value already set needs `confirmOverwrites`, else 409 overwrite_unconfirmed.",
    // Up to 100,000 rows of a metadata file, each with its prompt: more than the 4 MiB other JSON bodies may hold.
    body: { kind: "json", schema: applyMetadataSchema, maxBytes: 64 * 1024 * 1024 },
    responses: [ok("`{dryRun, matchedVideos, changes, overwrites, unmatchedRows, unmatchedRowCount, applied}`.")],
    errors: [409],
  },
  async ({ access, prisma, body }) => Response.json(await applyMetadataToVideos(prisma, access, body)),
);
