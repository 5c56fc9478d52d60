import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { itemIdSchema } from "@/lib/items/items.validation";
import { harnessUploadFieldsSchema, importHarnessRun } from "@/lib/tasks/qa/harness-import";

type Params = { projectId: string; setId: string };

/** multipart `file` (lmms-eval samples JSONL, VLMEvalKit TSV or XLSX), `format`, `model`, `dryRun`?, `createQuestions`?, `judgeEndpointId`?, `textOnly`?, `baselineRunId`?: an external QA run of the set. */
export const POST = withProject<Params>(
  "runs.manage",
  async ({ request, actor, params, project }) => {
    const questionSetId = itemIdSchema.parse(params.setId);
    const { file, fields } = await readItemFileUpload(request, { noun: "harness output file", defaultFileName: "samples.jsonl" });
    const upload = harnessUploadFieldsSchema.parse(fields);
    const result = await importHarnessRun(prisma, actor, project.id, { questionSetId, ...upload }, file.bytes, appJudgeQueue());
    return Response.json(result, { status: result.dryRun ? 200 : result.ok ? 201 : 422 });
  },
  { body: "multipart" },
);
