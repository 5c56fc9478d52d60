import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ensembleRunReport } from "@/lib/ensembles/ensemble-report";
import { ok } from "@/lib/api/openapi/route-builders";

/** An ensemble run's members with their cost, and per target the members' agreement (α) and unstable count; `{ensemble: null}` for a plain run. */
export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "An ensemble run's members, cost per member, and the members' agreement per target",
    responses: [
      ok(
        "`{ensemble}`: `{kind, combine, members: [{runId, memberIndex, endpoint, temperature, status, calls, costUsd}], costUsd, targets: [{target, scores, unstable, unstableAt, meanSd, alpha}]}`, or null for a plain run.",
      ),
    ],
  },
  async ({ prisma, access, record }) => Response.json({ ensemble: await ensembleRunReport(prisma, access, record.id) }),
);
