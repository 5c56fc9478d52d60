import { z } from "zod";
import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { resumeRun } from "@/lib/judge/run-budget";
import { getRunStatus } from "@/lib/judge/runs";
import { ok } from "@/lib/api/openapi/route-builders";

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
    responses: [ok("The run's status after resuming.")],
    // A run not stopped by its budget (cancelled by a member, running, finished).
    errors: [409],
  },
  async ({ prisma, actor, record, body }) => {
    await resumeRun({ prisma, queue: appJudgeQueue() }, actor, record.id, body);
    return Response.json(await getRunStatus(prisma, actor, record.id));
  },
);
