import { withActor } from "@/lib/api/handler";
import { requireProjectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { listItemSets } from "@/lib/items/item-sets";
import { referenceSetFieldsSchema } from "@/lib/items/items.validation";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { importStepAnnotations, stepAnnotationSetKind } from "@/lib/tasks/construction/step-annotation-sets";

type Params = { projectId: string };

export const GET = withActor<Params>(async (_request, actor, params) =>
  Response.json({ sets: await listItemSets(prisma, actor, projectIdSchema.parse(params.projectId), [stepAnnotationSetKind.id]) }),
);

/** multipart `file`: step annotations (JSONL, JSON array or CSV); `name`?, `citation`?, `dryRun`? ("true": plan the clips, write nothing). */
export const POST = withActor<Params>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  // Before reading the body: a reviewer's upload is refused without being read.
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  const { file, fields } = await readItemFileUpload(request, stepAnnotationSetKind);
  const options = referenceSetFieldsSchema.parse(fields);
  const result = await importStepAnnotations(prisma, actor, projectId, file, options);
  return Response.json(result, { status: result.dryRun ? 200 : 201 });
}, { body: "multipart" });
