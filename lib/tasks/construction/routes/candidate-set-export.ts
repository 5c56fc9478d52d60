import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { exportFormatSchema, candidateSetIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { exportBenchmark, toJsonl } from "@/lib/tasks/construction/export-benchmark";
import { candidateSetLookup } from "./project-lookups";
import { z } from "zod";
import { download } from "@/lib/api/openapi/route-builders";

/** `?format=mc|open|both` (default both): the accepted questions as a QA question set, JSONL (export.read). */
export const GET = withProjectOf(
  candidateSetLookup,
  "export.read",
  {
    summary: "The accepted questions as a question set (JSONL attachment)",
    params: { setId: candidateSetIdSchema },
    // Read by the handler: `format` alone, parsed as it comes (an empty one is not left out; an error names no field).
    query: { readBy: "handler", schema: z.object({ format: exportFormatSchema }) },
    responses: [download("The JSONL.", ["application/x-ndjson"])],
  },
  async ({ access, record, request }) => {
    const setId = record.id;
    const format = exportFormatSchema.parse(new URL(request.url).searchParams.get("format") ?? undefined);
    const exported = await exportBenchmark(prisma, access, setId, format);
    const filename = `${exported.setName.replace(/[^A-Za-z0-9._-]+/g, "-") || "benchmark"}-${format}.jsonl`;
    return new Response(toJsonl(exported.lines), {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
