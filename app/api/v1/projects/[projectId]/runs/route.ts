import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { createRunSchema } from "@/lib/judge/endpoints.validation";
import { PIPELINES } from "@/lib/tasks/modules";
import { createRun, listRuns } from "@/lib/judge/runs";

type Params = { projectId: string };

export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ runs: await listRuns(prisma, actor, project.id) }));

/** `{"pipeline":<a registered pipeline id>,"endpointId":…,"videoIds"?:[…],"dimension"?:…,"batch"?:true}`; no videoIds = every video with frames; `batch` needs an endpoint that supports the Batch API. */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, createRunSchema);
  const run = await createRun({ prisma, queue: appJudgeQueue(), pipelines: PIPELINES }, actor, project.id, input);
  return Response.json(run, { status: 201 });
});
