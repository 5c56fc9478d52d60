import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { releasedResponseSchema } from "@/lib/api/openapi/responses";
import { releasePair } from "@/lib/pairwise/review/next-pair";
import { releasePairSchema } from "@/lib/pairwise/review/review.types";
import { recordIdSchema } from "@/lib/validation/ids";

/** `{"pairId"}`: lets go of the caller's unsubmitted claim on the pair → `{released}` (a submitted one is kept). */
export const POST = withProjectOf(
  pairSetLookup,
  "scores.review",
  {
    summary: "Let go of the caller's unsubmitted claim on a pair",
    params: { pairSetId: recordIdSchema },
    body: { kind: "json", schema: releasePairSchema },
    responses: [ok("Whether it was released.", releasedResponseSchema)],
  },
  async ({ prisma, access, record, body }) => Response.json(await releasePair(prisma, access, record.id, body.pairId)),
);
