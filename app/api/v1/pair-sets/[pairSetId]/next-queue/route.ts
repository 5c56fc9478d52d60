import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { created } from "@/lib/api/openapi/route-builders";
import { createPairSetAnswerSchema } from "@/lib/pairwise/pair-sets/create-pair-set.types";
import { queueNextPairs, queueNextPairsSchema } from "@/lib/pairwise/pair-sets/queue-next-pairs";
import { pairSetIdSchema } from "@/lib/pairwise/pair-sets/pair-sets.types";

/** A queue of the active plan's next pairs for people: a new pair set of those pairs, with this set's settings. */
export const POST = withProjectOf(
  pairSetLookup,
  "pairs.manage",
  {
    summary: "Queue the next pairs for people: a pair set of the named pairs of this set (owners)",
    description:
      "`{pairIds}`: pairs of this set (the active plan's next pairs on the set's page). The answer is the new set, made with this set's aspects, reviewers per pair, blindness, guidelines, assignees and cap. A pair of another set, a honeypot or a pair whose video was deleted is a 400 naming it.",
    params: { pairSetId: pairSetIdSchema },
    body: { kind: "json", schema: queueNextPairsSchema },
    responses: [created("The new pair set and what was made.", createPairSetAnswerSchema)],
  },
  async ({ access, prisma, record, body }) =>
    Response.json(await queueNextPairs(prisma, access, record.id, body), { status: 201 }),
);
