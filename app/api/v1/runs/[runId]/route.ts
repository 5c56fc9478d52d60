import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { getRunStatus } from "@/lib/judge/runs";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "A run's status and progress",
    responses: [ok("The run.")],
  },
  async ({ prisma, actor, record }) => Response.json(await getRunStatus(prisma, actor, record.id)),
);
