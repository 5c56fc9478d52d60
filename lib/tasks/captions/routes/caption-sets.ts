import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { listItemSets } from "@/lib/items/item-sets";
import { referenceSetFieldsSchema } from "@/lib/items/items.validation";
import { CAPTION_SET_KINDS, captionReferenceSetKind, importReferenceSet } from "@/lib/tasks/captions/caption-set-import";

type Params = { projectId: string };

export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ sets: await listItemSets(prisma, actor, project.id, CAPTION_SET_KINDS) }));

/** multipart `file`: an AnyCapEval reference JSONL; `name`?, `citation`?, `dryRun`? ("true": check only, write nothing). */
export const POST = withProject<Params>(
  "videos.import",
  async ({ request, actor, project }) => {
    const projectId = project.id;
    // withProject checked "videos.import" before the body is read: a reviewer's upload is refused without being read.
    const { file, fields } = await readItemFileUpload(request, captionReferenceSetKind);
    const options = referenceSetFieldsSchema.parse(fields);
    const result = await importReferenceSet(prisma, actor, projectId, file, options);
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
  { body: "multipart" },
);
