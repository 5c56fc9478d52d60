import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { getPairForReview } from "@/lib/pairwise/review/next-pair";
import { pairForReviewSchema } from "@/lib/pairwise/review/review.types";
import { recordIdSchema } from "@/lib/validation/ids";

/** A pair the caller claimed (open or submitted), as they see it, to show again or edit. */
export const GET = withProjectOf(
  pairSetLookup,
  "scores.review",
  {
    summary: "A pair the caller claimed, as they see it",
    params: { pairSetId: recordIdSchema, pairId: recordIdSchema },
    responses: [ok("The pair as the reviewer sees it.", pairForReviewSchema)],
  },
  async ({ prisma, access, record, params }) =>
    Response.json(await getPairForReview(prisma, access, record.id, recordIdSchema.parse(params.pairId))),
);
