import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { listPairs } from "@/lib/pairwise/pair-sets/pair-sets";
import { listPairsQuerySchema, pairListAnswerSchema, pairSetIdSchema } from "@/lib/pairwise/pair-sets/pair-sets.types";

/** A page of a set's pairs, each video as it is now. */
export const GET = withProjectOf(
  pairSetLookup,
  "project.view",
  {
    summary: "A page of a pair set's pairs in position order, each side's video as it is now",
    description:
      "Page with `after` (the previous page's `nextAfter`) and `limit` (at most 500). A video deleted since the pair was made shows `{id: null, deleted: true}`; the pair keeps its prompt and generators. A reviewer sees no generator or file names while the set is blind.",
    params: { pairSetId: pairSetIdSchema },
    query: listPairsQuerySchema,
    responses: [ok("`{pairs, nextAfter}`.", pairListAnswerSchema)],
  },
  async ({ access, prisma, record, query }) => Response.json(await listPairs(prisma, access, record.id, query)),
);
