import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { listItemSets } from "@/lib/items/item-sets";
import { referenceSetFieldsSchema } from "@/lib/items/items.validation";
import { importQuestionSet, questionSetKind } from "@/lib/tasks/qa/question-set-import";
import { ok, setFileFields, importAnswers } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The question sets",
    responses: [ok("`{sets: [...]}`.")],
  },
  async ({ access }) => Response.json({ sets: await listItemSets(prisma, access, [questionSetKind.id]) }),
);

/** multipart `file`: a question set (JSONL, JSON array or CSV); `name`?, `citation`?, `dryRun`? ("true": check only, write nothing). */
export const POST = withProject(
  "videos.import",
  {
    summary: "Import a question set (owners)",
    description: setFileFields,
    body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
    responses: importAnswers("the question set"),
    errors: [413, 422],
  },
  async ({ access, request }) => {
    // withProject checked "videos.import" before the body is read: a reviewer's upload is refused without being read.
    const { file, fields } = await readItemFileUpload(request, questionSetKind);
    const options = referenceSetFieldsSchema.parse(fields);
    const result = await importQuestionSet(prisma, access, file, options);
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
);
