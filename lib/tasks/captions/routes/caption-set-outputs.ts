import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { itemIdSchema, outputsFieldsSchema } from "@/lib/items/items.validation";
import { captionOutputsKind, importModelOutputs } from "@/lib/tasks/captions/caption-set-import";
import { importAnswers } from "@/lib/api/openapi/route-builders";

/** multipart `file` (JSONL or CSV: {id, output} or {video, type, output}), `model`, `name`?, `dryRun`?. */
export const POST = withProject(
  "videos.import",
  {
    summary: "Import one model's outputs against a reference set (owners)",
    params: { setId: itemIdSchema },
    body: {
      kind: "multipart",
      fields: outputsFieldsSchema,
      files: { file: "JSONL or CSV: {id, output} or {video, type, output}." },
    },
    responses: importAnswers("the outputs"),
    errors: [409, 413, 422],
  },
  async ({ access, request, params }) => {
    const setId = itemIdSchema.parse(params.setId);
    const { file, fields } = await readItemFileUpload(request, captionOutputsKind);
    const options = outputsFieldsSchema.parse(fields);
    const result = await importModelOutputs(prisma, access, setId, file, options);
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
);
