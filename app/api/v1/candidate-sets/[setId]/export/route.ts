import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { candidateSetIdSchema, exportFormatSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { exportBenchmark, toJsonl } from "@/lib/tasks/construction/export-benchmark";

/** `?format=mc|open|both` (default both): the accepted questions as a QA question set, JSONL (export.read). */
export const GET = withActor<{ setId: string }>(async (request, actor, params) => {
  const setId = candidateSetIdSchema.parse(params.setId);
  const format = exportFormatSchema.parse(new URL(request.url).searchParams.get("format") ?? undefined);
  const exported = await exportBenchmark(prisma, actor, setId, format);
  const filename = `${exported.setName.replace(/[^A-Za-z0-9._-]+/g, "-") || "benchmark"}-${format}.jsonl`;
  return new Response(toJsonl(exported.lines), {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
