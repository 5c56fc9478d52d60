import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { candidateCuration, saveCandidateCuration } from "@/lib/tasks/construction/curation-queues";
import { curationBodySchema, candidateItemIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { candidateItemLookup } from "./project-lookups";
import { ok } from "@/lib/api/openapi/route-builders";

/** Every curator's decision on the candidate, its outcome and the append-only history. */
export const GET = withProjectOf(
  candidateItemLookup(),
  "project.view",
  {
    summary: "Every curator's decision on a candidate, its outcome and history",
    params: { itemId: candidateItemIdSchema },
    responses: [ok("The decisions.")],
  },
  async ({ access, record }) => Response.json(await candidateCuration(prisma, access, record.id)),
);

/**
 * `{"decision": "accept"|"reject", "edits"?: {question?, options?, answer?, category?}, "reason"?, "expectedVersion"?}`
 * (reviewers and owners) → the decision with its new version; 409 with `details.current` on a stale version.
 */
export const PUT = withProjectOf(
  candidateItemLookup(),
  "scores.review",
  {
    summary: "Save the caller's curation decision (reviewers, owners)",
    params: { itemId: candidateItemIdSchema },
    body: { kind: "json", schema: curationBodySchema },
    responses: [ok("The decision with its new version.")],
    errors: [409],
  },
  async ({ access, record, body }) => Response.json(await saveCandidateCuration(prisma, access, record.id, body)),
);
