import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { vbench2FrameReadiness } from "@/lib/tasks/vbench2/frame-readiness";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "How many videos lack VBench-2.0's 64 uniform frames",
    description:
      "`{videos, lacking, pendingQuery}`: the project's videos, those without a uniform frame set of 64 frames (a VBench-2.0 run leaves them out), and the query of the page that extracts that set (`/projects/{projectId}/pending?<pendingQuery>`).",
    responses: [ok("The counts.")],
  },
  async ({ access }) => Response.json(await vbench2FrameReadiness(prisma, access)),
);
