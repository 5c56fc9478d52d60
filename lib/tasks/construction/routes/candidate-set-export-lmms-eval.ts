import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { exportFormatSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { exportLmmsEval } from "@/lib/tasks/construction/export-lmms-eval";
import { candidateSetScope } from "@/lib/tasks/construction/project-scopes";

/** `?format=mc|open|both` (default both): the accepted questions as an lmms-eval task folder, .tar (export.read). */
export const GET = withProjectOf(candidateSetScope, "project.view", async ({ actor, record, request }) => {
  const format = exportFormatSchema.parse(new URL(request.url).searchParams.get("format") ?? undefined);
  const { stream, filename } = await exportLmmsEval(prisma, actor, record.id, format);
  return new Response(stream, {
    headers: {
      "content-type": "application/x-tar",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
