import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { listDisagreements } from "@/lib/pairwise/pair-sets/gold";
import { disagreementListAnswerSchema, disagreementsQuerySchema } from "@/lib/pairwise/pair-sets/gold.types";
import { pairSetIdSchema } from "@/lib/pairwise/pair-sets/pair-sets.types";

/** The pairs people's verdicts differ on, for adjudication. */
export const GET = withProjectOf(
  pairSetLookup,
  "gold.set",
  {
    summary: "The pairs people's verdicts differ on for an aspect, with their verdicts and the gold (adjudicators)",
    params: { pairSetId: pairSetIdSchema },
    query: disagreementsQuerySchema,
    responses: [ok("`{disagreements, nextAfter}`.", disagreementListAnswerSchema)],
  },
  async ({ access, prisma, record, query }) => Response.json(await listDisagreements(prisma, access, record.id, query)),
);
