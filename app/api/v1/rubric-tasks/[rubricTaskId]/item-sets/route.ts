import { rubricTaskLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { GENERIC_ITEM_FILE } from "@/lib/items/generic-items";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { referenceSetFieldsSchema } from "@/lib/items/items.validation";
import { importRubricItems, listRubricItemSets } from "@/lib/rubrics/rubric-item-sets";
import { rubricTaskIdSchema } from "@/lib/rubrics/rubrics.validation";
import { ok, setFileFields, importAnswers } from "@/lib/api/openapi/route-builders";

/** The item sets of a rubric task whose subject is an item (members). */
export const GET = withProjectOf(
  rubricTaskLookup(),
  "project.view",
  {
    summary: "The item sets of a rubric task whose subject is an item",
    description: "A task that judges videos → 400.",
    params: { rubricTaskId: rubricTaskIdSchema },
    responses: [ok("`{sets: [...]}`, in import order.")],
  },
  async ({ prisma, access, record }) => Response.json({ sets: await listRubricItemSets(prisma, access, record.id) }),
);

/**
 * multipart `file`: the task's items (JSONL, JSON array or CSV, each row naming its video and giving the fields the
 * rubric declares); `name`?, `citation`?, `dryRun`? ("true": list every unreadable row with its line, write nothing).
 */
export const POST = withProjectOf(
  rubricTaskLookup(),
  "videos.import",
  {
    summary: "Import items for a rubric task whose subject is an item (owners, editors)",
    description: `${setFileFields} Each row (JSONL, JSON array or CSV) names its video by path or file name in \`video\`, an optional \`id\`, and the fields the rubric's latest version declares. A file with a row that cannot be read → 422 invalid_file, every problem in \`error.details.errors\` \`[{line, message}]\` and nothing written. A task that judges videos → 400.`,
    params: { rubricTaskId: rubricTaskIdSchema },
    body: { kind: "multipart", fields: referenceSetFieldsSchema, files: { file: "JSONL, JSON array or CSV." } },
    responses: importAnswers("the item set"),
    errors: [413, 422],
  },
  async ({ prisma, access, record, request }) => {
    // The scope checked "videos.import" before the body is read: a reviewer's upload is refused unread.
    const { file, fields } = await readItemFileUpload(request, GENERIC_ITEM_FILE);
    const result = await importRubricItems(prisma, access, record.id, file, referenceSetFieldsSchema.parse(fields));
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
);
