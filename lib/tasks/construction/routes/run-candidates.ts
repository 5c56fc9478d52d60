import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { createCandidatesFromRun } from "@/lib/tasks/construction/candidates";
import { ok, created } from "@/lib/api/openapi/route-builders";

/** A finished qa_generate run's pairs as a candidate set (idempotent: the same set on every call). */
export const POST = withProjectOf(
  runLookup(),
  "runs.manage",
  {
    summary: "A finished qa_generate run's pairs as a candidate set (idempotent)",
    responses: [ok("The set already made from this run."), created("The candidate set.")],
  },
  async ({ access, record }) => {
    const runId = record.id;
    const made = await createCandidatesFromRun(prisma, access, runId);
    return Response.json(made, { status: made.existed ? 200 : 201 });
  },
);
