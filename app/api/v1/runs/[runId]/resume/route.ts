import { z } from "zod";
import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { resumeRun } from "@/lib/judge/runs/run-budget";
import { getRunStatus } from "@/lib/judge/runs/runs";
import { runStatusAnswerSchema } from "@/lib/judge/runs/runs.types";
import { ok } from "@/lib/api/openapi/route-builders";
import { appPairwiseQueue } from "@/lib/pairwise/judge/pairwise-queue";
import { requeuePairwiseRun } from "@/lib/pairwise/judge/pairwise-run";
import { PAIRWISE_RUN } from "@/lib/run-records/run-name";

const resumeSchema = z.strictObject({
  /** The run's new budget in US dollars (above the one that stopped it and what it has spent); null: no budget. */
  budgetUsd: z.number().positive().max(1_000_000).nullable(),
});

export const POST = withProjectOf(
  runLookup(),
  "runs.manage",
  {
    summary: "Resume a run its budget stopped, with a higher budget",
    description:
      "`{budgetUsd}`: the new budget, above the budget that stopped the run and what it has spent (null: none). Its unfinished videos are judged again (an ensemble run, named itself or by a member: every member its budget stopped); steps already answered are not asked again.",
    body: { kind: "json", schema: resumeSchema },
    responses: [ok("The run's status after resuming.", runStatusAnswerSchema)],
    // A run not stopped by its budget (cancelled by a member, running, finished).
    errors: [409],
  },
  async ({ prisma, access, record, body }) => {
    await resumeRun({ prisma, queue: appJudgeQueue() }, access, record.id, body);
    // A pairwise run has no videos to queue again: its pairs with questions left go to the pairwise queue.
    const status = await getRunStatus(prisma, access, record.id);
    if (status.pipeline === PAIRWISE_RUN.pipeline)
      await requeuePairwiseRun({ prisma, queue: appPairwiseQueue() }, record.id);
    return Response.json(status);
  },
);
