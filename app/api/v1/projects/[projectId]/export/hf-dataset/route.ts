import { tarAttachmentResponse } from "@/lib/api/attachment";
import { withProject } from "@/lib/api/with-project";
import { runHfDatasetExport } from "@/lib/export/hf-dataset";
import { hfDatasetQuerySchema, hfSplitSpecOf } from "@/lib/export/hf-splits.validation";
import { download } from "@/lib/api/openapi/route-builders";

/**
 * GET /api/v1/projects/:id/export/hf-dataset?runId=…[&split=seed|metadata|labelSet…]: the run as a Hugging Face
 * dataset (.tar), streamed; one `test` split unless a split is asked for (lib/export/hf-splits.ts).
 */
export const GET = withProject(
  "export.read",
  {
    summary:
      "A run as a Hugging Face dataset (.tar: JSONL shards per split, frames, dataset card), streamed; split by seed, metadata field or label set",
    query: hfDatasetQuerySchema,
    responses: [download("The dataset, as a .tar attachment.", ["application/x-tar"])],
  },
  async ({ access, prisma, query }) => {
    const { stream, filename } = await runHfDatasetExport(prisma, access, query.runId, {
      split: hfSplitSpecOf(query),
    });
    return tarAttachmentResponse(stream, filename);
  },
);
