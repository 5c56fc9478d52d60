import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { listItemSets } from "@/lib/items/item-sets";
import { referenceSetFieldsSchema } from "@/lib/items/items.validation";
import {
  CAPTION_SET_KINDS,
  captionReferenceSetKind,
  importReferenceSet,
} from "@/lib/tasks/captions/caption-set-import";
import { ok, setFileFields, importAnswers } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The caption sets",
    responses: [ok("`{sets: [...]}`.")],
  },
  async ({ access }) => Response.json({ sets: await listItemSets(prisma, access, CAPTION_SET_KINDS) }),
);

/** multipart `file`: an AnyCapEval reference JSONL; `name`?, `citation`?, `dryRun`? ("true": check only, write nothing). */
export const POST = withProject(
  "videos.import",
  {
    summary: "Import an AnyCapEval reference JSONL (owners)",
    description: setFileFields,
    body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "The reference JSONL." } },
    responses: importAnswers("the reference set"),
    errors: [413, 422],
  },
  async ({ access, request }) => {
    // withProject checked "videos.import" before the body is read: a reviewer's upload is refused without being read.
    const { file, fields } = await readItemFileUpload(request, captionReferenceSetKind);
    const options = referenceSetFieldsSchema.parse(fields);
    const result = await importReferenceSet(prisma, access, file, options);
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
);
