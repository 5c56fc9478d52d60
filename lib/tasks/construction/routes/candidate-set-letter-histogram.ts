import { withProjectOf } from "@/lib/api/with-project";
import { accessFor } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { exportOverview } from "@/lib/tasks/construction/export-benchmark";
import { candidateSetLookup } from "./project-lookups";
import { candidateSetIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** `{curatorsPerQuestion, counts, multipleChoice, histogram}`: how many exported mc questions have each correct letter. */
export const GET = withProjectOf(
  candidateSetLookup,
  "project.view",
  {
    summary: "How many exported mc questions have each correct letter",
    params: { setId: candidateSetIdSchema },
    responses: [ok("`{curatorsPerQuestion, counts, multipleChoice, histogram}`.")],
  },
  async ({ access, record }) =>
    Response.json(await exportOverview(prisma, accessFor(access, "export.read"), record.id)),
);
