import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { listItemSets } from "@/lib/items/item-sets";
import { referenceSetFieldsSchema } from "@/lib/items/items.validation";
import { importStepAnnotations, stepAnnotationSetKind } from "@/lib/tasks/construction/step-annotation-sets";
import { ok, setFileFields, importAnswers } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The step annotation sets",
    responses: [ok("`{sets: [...]}`.")],
  },
  async ({ access }) => Response.json({ sets: await listItemSets(prisma, access, [stepAnnotationSetKind.id]) }),
);

/** multipart `file`: step annotations (JSONL, JSON array or CSV); `name`?, `citation`?, `dryRun`? ("true": plan the clips, write nothing). */
export const POST = withProject(
  "videos.import",
  {
    summary: "Import step annotations for Q&A construction as clips (owners)",
    description: setFileFields,
    body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
    responses: importAnswers("the clips"),
    errors: [413, 422],
  },
  async ({ access, request }) => {
    // withProject checked "videos.import" before the body is read: a reviewer's upload is refused without being read.
    const { file, fields } = await readItemFileUpload(request, stepAnnotationSetKind);
    const options = referenceSetFieldsSchema.parse(fields);
    const result = await importStepAnnotations(prisma, access, file, options);
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
);
