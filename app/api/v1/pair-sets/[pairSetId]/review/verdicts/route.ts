import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { savePairVerdicts } from "@/lib/pairwise/review/save-verdicts";
import { savePairVerdictsResponseSchema, savePairVerdictsSchema } from "@/lib/pairwise/review/review.types";
import { recordIdSchema } from "@/lib/validation/ids";

/**
 * `{"pairId","verdicts":[{"aspect","verdict":"A"|"B"|"tie_good"|"tie_bad"|null,"strength"?,"version"?}],
 * "msToVerdict"?,"note"?,"submit"?}`, in the pair's A/B terms, on a pair the caller holds.
 */
export const POST = withProjectOf(
  pairSetLookup,
  "scores.review",
  {
    summary: "Save the caller's verdicts on a pair they hold (and submit it)",
    description:
      "`verdict: null` withdraws (the row and its history stay). A version older than the saved one answers 409; a pair the caller does not hold answers 409 `not_held`.",
    params: { pairSetId: recordIdSchema },
    body: { kind: "json", schema: savePairVerdictsSchema },
    responses: [
      ok("The caller's verdicts on the pair, its status and their progress.", savePairVerdictsResponseSchema),
    ],
    errors: [409],
  },
  async ({ prisma, access, record, body }) => Response.json(await savePairVerdicts(prisma, access, record.id, body)),
);
