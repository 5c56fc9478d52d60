import { withProject } from "@/lib/api/with-project";
import { created, ok } from "@/lib/api/openapi/route-builders";
import { createPairSet } from "@/lib/pairwise/pair-sets/create-pair-set";
import { createPairSetAnswerSchema, createPairSetSchema } from "@/lib/pairwise/pair-sets/create-pair-set.types";
import { listPairSets } from "@/lib/pairwise/pair-sets/pair-sets";
import { listPairSetsQuerySchema, pairSetListAnswerSchema } from "@/lib/pairwise/pair-sets/pair-sets.types";

/** The project's pair sets, newest first. */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's pair sets, newest first",
    description: "`archived`: `exclude` (the default), `include` or `only`.",
    query: listPairSetsQuerySchema,
    responses: [ok("`{pairSets: [...]}`.", pairSetListAnswerSchema)],
  },
  async ({ access, prisma, query }) => Response.json({ pairSets: await listPairSets(prisma, access, query) }),
);

/** Makes a pair set from the project's videos (owners). */
export const POST = withProject(
  "pairs.manage",
  {
    summary: "Make a pair set from the project's videos (owners)",
    description:
      "Designs: `all_pairs`, `round_robin` (each generator meets each other about equally often across prompts), `k_per_prompt` (with `k`), `explicit` (with `pairs`). `sample`: `same_index` or `random`; `seed` makes it reproducible. Only prompts with videos of two generators make pairs; videos without a model are left out and counted. Refused: no prompt with two generators (422 `no_pairs`), more than 100,000 pairs (422 `too_many_pairs`), a video paired with itself or two prompts without `crossPrompt` (400), a name taken (409).",
    body: { kind: "json", schema: createPairSetSchema },
    responses: [created("The set, the pairs made and what was left out.", createPairSetAnswerSchema)],
  },
  async ({ access, prisma, body }) => Response.json(await createPairSet(prisma, access, body), { status: 201 }),
);
