import { pairInSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { setGoldVerdict } from "@/lib/pairwise/pair-sets/gold";
import { goldVerdictAnswerSchema, setGoldVerdictSchema } from "@/lib/pairwise/pair-sets/gold.types";
import { pairIdSchema, pairSetIdSchema } from "@/lib/pairwise/pair-sets/pair-sets.types";

/** Sets the gold verdict of one aspect of a pair (adjudicators). */
export const PUT = withProjectOf(
  pairInSetLookup,
  "gold.set",
  {
    summary: "Set the gold verdict of one aspect of a pair (adjudicators)",
    description:
      "The first save sends no `version`; a change sends the version it edits. A stale or missing version is a 409 with `error.details.current`. Every change is kept in the verdict's history.",
    params: { pairSetId: pairSetIdSchema, pairId: pairIdSchema },
    body: { kind: "json", schema: setGoldVerdictSchema },
    responses: [ok("The gold verdict.", goldVerdictAnswerSchema)],
  },
  async ({ access, prisma, record, body }) =>
    Response.json(await setGoldVerdict(prisma, access, { ...body, pairId: record.id })),
);
