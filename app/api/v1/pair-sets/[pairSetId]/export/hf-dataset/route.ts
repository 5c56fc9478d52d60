import { tarAttachmentResponse } from "@/lib/api/attachment";
import { download } from "@/lib/api/openapi/route-builders";
import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { pairVotesHfDataset } from "@/lib/pairwise/export/hf-pair-votes";

/** GET /api/v1/pair-sets/:pairSetId/export/hf-dataset: the set's votes as a Hugging Face dataset (.tar), streamed. */
export const GET = withProjectOf(
  pairSetLookup,
  "export.read",
  {
    summary: "A pair set's votes as a Hugging Face dataset (.tar: JSONL shards and a dataset card), streamed",
    responses: [download("The dataset, as a .tar attachment.", ["application/x-tar"])],
  },
  async ({ prisma, access, record }) => {
    const { stream, filename } = await pairVotesHfDataset(prisma, access, record.id);
    return tarAttachmentResponse(stream, filename);
  },
);
