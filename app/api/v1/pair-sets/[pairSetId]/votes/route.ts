import { download } from "@/lib/api/openapi/route-builders";
import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { textStream } from "@/lib/export/text-stream";
import { exportPairSetVotes } from "@/lib/pairwise/export/votes-export";
import { voteExportQuerySchema } from "@/lib/pairwise/export/votes-export.types";

/** GET /api/v1/pair-sets/:pairSetId/votes?format=csv|jsonl|arena&aspect: the set's votes as a file. */
export const GET = withProjectOf(
  pairSetLookup,
  "export.read",
  {
    summary: "A pair set's votes as CSV, JSON Lines or arena battles",
    description:
      "CSV and JSON Lines in the generic import's shape (pair_key, prompt, generator_a, generator_b, video_a, video_b, sha256_a, sha256_b, aspect, rater, rater_kind, verdict, strength, updated_at): an export imports again. `arena`: JSON Lines of FastChat battles (model_a, model_b, winner model_a | model_b | tie | tie (bothbad), judge, tstamp) with prompt, video_a, video_b and aspect. Withdrawn verdicts are left out.",
    query: voteExportQuerySchema,
    responses: [download("The votes file, as an attachment.", ["text/csv", "application/x-ndjson"])],
  },
  async ({ prisma, access, record, query }) => {
    const file = await exportPairSetVotes(prisma, access, record.id, query.format, query.aspect);
    return new Response(textStream(file.chunks), {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.fileName}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
