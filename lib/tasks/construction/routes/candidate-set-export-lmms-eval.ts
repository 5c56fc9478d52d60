import { tarAttachmentResponse } from "@/lib/api/attachment";
import { withProjectOf } from "@/lib/api/with-project";
import { accessFor } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { exportFormatSchema, candidateSetIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { exportLmmsEval } from "@/lib/tasks/construction/export-lmms-eval";
import { candidateSetLookup } from "./project-lookups";
import { z } from "zod";
import { download } from "@/lib/api/openapi/route-builders";

/** `?format=mc|open|both` (default both): the accepted questions as an lmms-eval task folder, .tar (export.read). */
export const GET = withProjectOf(
  candidateSetLookup,
  "project.view",
  {
    summary: "The accepted questions as an lmms-eval task folder (task yaml, docs JSONL, utils.py; .tar attachment)",
    params: { setId: candidateSetIdSchema },
    // Read by the handler: `format` alone, parsed as it comes (an empty one is not left out; an error names no field).
    query: { readBy: "handler", schema: z.object({ format: exportFormatSchema }) },
    responses: [download("The .tar.", ["application/x-tar"])],
  },
  async ({ access, record, request }) => {
    const format = exportFormatSchema.parse(new URL(request.url).searchParams.get("format") ?? undefined);
    const { stream, filename } = await exportLmmsEval(prisma, accessFor(access, "export.read"), record.id, format);
    return tarAttachmentResponse(stream, filename);
  },
);
