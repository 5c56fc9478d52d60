import { withProject } from "@/lib/api/with-project";
import { importAnswers } from "@/lib/api/openapi/route-builders";
import { importPairwise } from "@/lib/pairwise/import/import-pairwise";
import { pairImportAnswerSchema, pairImportOptionsSchema } from "@/lib/pairwise/import/import.types";
import { pairImportFieldsSchema, readPairImportUpload } from "@/lib/pairwise/import/pair-import-upload";

/**
 * multipart: `options` (JSON: format uve | arena | genai-bench | csv | jsonl, name, mapping?, aspect?, aspects?, rater?,
 * judge?, crossPrompt?, citation?, dryRun?), `dryRun` ("true" by default), `file`. A dry run answers the counts and
 * writes nothing; a real run writes a pair set and a label set of the votes.
 */
export const POST = withProject(
  "pairs.manage",
  {
    summary: "Import pairwise votes (owners)",
    description:
      "UVE-Bench annotations, arena battles (FastChat / GenAI-Arena), GenAI-Bench pairwise judge outputs, or generic CSV / JSON Lines (`video_a`, `video_b`, `verdict`, `aspect`, `rater`, optional `prompt`, `generator_a`, `generator_b`, `strength`). `dryRun` is true by default: rows read, votes, interpretations and refusals counted by reason (the first 100 listed), nothing written.",
    body: {
      kind: "multipart",
      fields: pairImportFieldsSchema,
      jsonFields: { options: pairImportOptionsSchema },
      files: { file: "The votes file." },
    },
    responses: importAnswers("the pairwise votes", {
      dryRun: pairImportAnswerSchema,
      imported: pairImportAnswerSchema,
    }),
    errors: [409, 413],
  },
  async ({ prisma, request, access }) => {
    const upload = await readPairImportUpload(request);
    try {
      const answer = await importPairwise(prisma, access, {
        options: upload.options,
        file: upload.file(),
        fileName: upload.fileName,
      });
      return Response.json(answer, { status: answer.dryRun ? 200 : 201 });
    } finally {
      await upload.dispose();
    }
  },
);
