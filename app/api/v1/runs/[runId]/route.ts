import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { getRunStatus } from "@/lib/judge/runs/runs";
import { runStatusAnswerSchema } from "@/lib/judge/runs/runs.types";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "A run's status and progress",
    responses: [ok("The run.", runStatusAnswerSchema)],
  },
  async ({ prisma, access, record }) => Response.json(await getRunStatus(prisma, access, record.id)),
);
