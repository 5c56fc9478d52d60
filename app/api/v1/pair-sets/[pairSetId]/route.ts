import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { noContent, ok } from "@/lib/api/openapi/route-builders";
import { deletePairSet, getPairSet, updatePairSet } from "@/lib/pairwise/pair-sets/pair-sets";
import {
  pairSetDetailSchema,
  pairSetIdSchema,
  pairSetSummarySchema,
  updatePairSetSchema,
} from "@/lib/pairwise/pair-sets/pair-sets.types";

/** A pair set with its counts. */
export const GET = withProjectOf(
  pairSetLookup,
  "project.view",
  {
    summary: "A pair set with its counts (pairs, honeypots, done pairs, verdicts per aspect, judge runs)",
    params: { pairSetId: pairSetIdSchema },
    responses: [ok("The set.", pairSetDetailSchema)],
  },
  async ({ access, prisma, record }) => Response.json(await getPairSet(prisma, access, record.id)),
);

/** Archives a pair set or brings it back, or changes its name, guidelines, assignees, reviewers per pair or cap (owners). */
export const PATCH = withProjectOf(
  pairSetLookup,
  "pairs.manage",
  {
    summary: "Archive a pair set or bring it back, or change its settings (owners)",
    description:
      "Any of `archived`, `name`, `guidelines`, `assigneeIds` (reviewers of the project; empty: any reviewer), `reviewersPerPair`, `votesPerPromptCap`.",
    params: { pairSetId: pairSetIdSchema },
    body: { kind: "json", schema: updatePairSetSchema },
    responses: [ok("The set.", pairSetSummarySchema)],
  },
  async ({ access, prisma, record, body }) => Response.json(await updatePairSet(prisma, access, record.id, body)),
);

/** Deletes a pair set with its pairs, verdicts and the judge runs on it (owners). */
export const DELETE = withProjectOf(
  pairSetLookup,
  "pairs.manage",
  {
    summary: "Delete a pair set with its pairs, verdicts and the judge runs on it (owners)",
    description: "A judge run still judging the set must finish or be cancelled first: 409 `run_in_progress`.",
    params: { pairSetId: pairSetIdSchema },
    responses: [noContent("Deleted.")],
  },
  async ({ access, prisma, record }) => {
    await deletePairSet(prisma, access, record.id);
    return new Response(null, { status: 204 });
  },
);
