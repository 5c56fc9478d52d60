import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { readItemFileUpload } from "@/lib/items/item-file-upload";
import { itemIdSchema } from "@/lib/items/items.validation";
import { harnessUploadFieldsSchema } from "@/lib/tasks/qa/harness-fields";
import { importHarnessRun } from "@/lib/tasks/qa/harness-import";
import { importAnswers } from "@/lib/api/openapi/route-builders";

/**
 * multipart `file` (lmms-eval samples JSONL, VLMEvalKit TSV or XLSX), `format`, `model`, `dryRun`?, `createQuestions`?,
 * `judgeEndpointId`?, `textOnly`?, `baselineRunId`?: an external QA run of the set.
 */
export const POST = withProject(
  "runs.manage",
  {
    summary: "Import an lmms-eval or VLMEvalKit output file as an external QA run of the set (owners)",
    description:
      'Multipart: `file`, `format` ("lmms-eval": a log_samples JSONL; "vlmevalkit": a prediction TSV or XLSX), `model`, `dryRun`? ("true": list every unreadable row with its line, write nothing), `createQuestions`? ("true": create the questions the set lacks, on the project\'s video of the same name), `judgeEndpointId`? (judge the open and letterless answers with this endpoint, as a job: the run is queued until they are judged), `textOnly`? ("true": the answers were given without the video), `baselineRunId`? (a done text-only run of the set, own or external, as the run\'s text-only baseline).',
    params: { setId: itemIdSchema },
    body: {
      kind: "multipart",
      fields: harnessUploadFieldsSchema,
      files: { file: "lmms-eval samples JSONL, or VLMEvalKit predictions (TSV or XLSX)." },
    },
    responses: importAnswers("the external run"),
    errors: [413, 422],
  },
  async ({ request, access, params }) => {
    const questionSetId = itemIdSchema.parse(params.setId);
    const { file, fields } = await readItemFileUpload(request, {
      noun: "harness output file",
      defaultFileName: "samples.jsonl",
    });
    const upload = harnessUploadFieldsSchema.parse(fields);
    const result = await importHarnessRun(prisma, access, { questionSetId, ...upload }, file.bytes, appJudgeQueue());
    return Response.json(result, { status: result.dryRun ? 200 : result.ok ? 201 : 422 });
  },
);
