import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { createRunSchema } from "@/lib/judge/endpoints.validation";
import { installedPipelines } from "@/lib/task-modules/installed-task-modules";
import { createRun, listRuns } from "@/lib/judge/runs";
// Installs the task modules in this bundle's copy of the core too (instrumentation.ts installs them for the server).
import "@/lib/tasks/modules";

type Params = { projectId: string };

export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ runs: await listRuns(prisma, actor, project.id) }));

/** `{"pipeline":<a registered pipeline id>,"endpointId":…,"videoIds"?:[…],"dimension"?:…,"batch"?:true}`; no videoIds = every video with frames; `batch` needs an endpoint that supports the Batch API. */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, createRunSchema);
  const run = await createRun({ prisma, queue: appJudgeQueue(), pipelines: installedPipelines() }, actor, project.id, input);
  return Response.json(run, { status: 201 });
});
