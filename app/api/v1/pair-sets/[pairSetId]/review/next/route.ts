import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { nextPair } from "@/lib/pairwise/review/next-pair";
import { nextPairResponseSchema } from "@/lib/pairwise/review/review.types";
import { recordIdSchema } from "@/lib/validation/ids";

/** Claims the caller's next pair (or returns their open claim) → `{pair, progress}`; `pair` null when none is left. */
export const POST = withProjectOf(
  pairSetLookup,
  "scores.review",
  {
    summary: "Claim the caller's next pair of a pair set (or return their open claim)",
    description:
      "The side video A is shown on is drawn at the claim and kept. A blind set's pair carries no generator or file name.",
    params: { pairSetId: recordIdSchema },
    responses: [ok("The pair as the reviewer sees it, and their progress.", nextPairResponseSchema)],
  },
  async ({ prisma, access, record }) => Response.json(await nextPair(prisma, access, record.id)),
);
