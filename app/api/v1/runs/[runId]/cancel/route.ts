import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { cancelRun, getRunStatus } from "@/lib/judge/runs/runs";
import { ok } from "@/lib/api/openapi/route-builders";

export const POST = withProjectOf(
  runLookup(),
  "runs.manage",
  {
    summary: "Cancel a run (an ensemble's parent and members cancel together)",
    responses: [ok("The run's status after cancelling.")],
  },
  async ({ prisma, access, record }) => {
    const runId = record.id;
    await cancelRun(prisma, access, runId);
    return Response.json(await getRunStatus(prisma, access, runId));
  },
);
