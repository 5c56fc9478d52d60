import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { fileTemplateSource } from "@/lib/judge/prompts/template-source";
import { createPairwiseRun } from "@/lib/pairwise/judge/pairwise-run";
import { createPairwiseRunAnswerSchema, createPairwiseRunSchema } from "@/lib/pairwise/judge/pairwise-run.types";
import { appPairwiseQueue } from "@/lib/pairwise/judge/pairwise-queue";
import { ok, created } from "@/lib/api/openapi/route-builders";

export const POST = withProjectOf(
  pairSetLookup,
  "runs.manage",
  {
    summary: "Start a pairwise judge run over a pair set (every pair in both orders)",
    description:
      "`{endpointId, aspects?, pairIds?, budgetUsd?, framesPerVideo?, inputMode?: \"images\", dryRun?}`. Every pair (or only the `pairIds` named: the active plan's next pairs) is asked on every aspect (the set's, or those named) twice: video A shown first, then video B; the two answers are reconciled into the run's verdict (agreeing → that verdict; opposite winners → both good, counted as a position flip). `dryRun: true` starts nothing and answers the cost estimate, which counts both orders. An aspect the set does not have is a 400.",
    body: { kind: "json", schema: createPairwiseRunSchema },
    responses: [
      created(
        "`{id, pairs, questions, calls, estimate}`: the run, its pairs, pair × aspect questions, calls (two per question).",
        createPairwiseRunAnswerSchema,
      ),
      ok("A dry run: `{id: null, pairs, questions, calls, estimate}`.", createPairwiseRunAnswerSchema),
    ],
    errors: [404],
  },
  async ({ prisma, access, record, body }) => {
    const run = await createPairwiseRun(
      { prisma, queue: appPairwiseQueue(), templates: fileTemplateSource() },
      access,
      record.id,
      body,
    );
    return Response.json(run, { status: run.id === null ? 200 : 201 });
  },
);
