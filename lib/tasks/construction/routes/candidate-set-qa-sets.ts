import { withProjectOf } from "@/lib/api/with-project";
import { accessFor, projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { makeQaSetSchema, candidateSetIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { makeQaSet } from "@/lib/tasks/construction/export-benchmark";
import { candidateSetLookup } from "./project-lookups";
import { created } from "@/lib/api/openapi/route-builders";

/** `{"projectId","format": "mc"|"open"|"both","name"}` → `{questionSetId, projectId, count}`: the export imported as a question set. */
export const POST = withProjectOf(
  candidateSetLookup,
  "videos.import",
  {
    summary: "Import the export as a question set of a project",
    params: { setId: candidateSetIdSchema },
    body: { kind: "json", schema: makeQaSetSchema },
    responses: [created("`{questionSetId, projectId, count}`.")],
    errors: [422],
  },
  async ({ actor, access, record, body: input }) => {
    // The question set goes to another project, checked here for its own right to import.
    const into = await projectAccess(prisma, actor, input.projectId, "videos.import");
    return Response.json(await makeQaSet(prisma, accessFor(access, "export.read"), into, record.id, input), {
      status: 201,
    });
  },
);
