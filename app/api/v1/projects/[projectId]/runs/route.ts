import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { createRunSchema } from "@/lib/judge/endpoints.validation";
import { PIPELINES } from "@/lib/tasks/modules";
import { createRun, listRuns } from "@/lib/judge/runs";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

export const GET = withActor<Params>(async (_request, actor, params) =>
  Response.json({ runs: await listRuns(prisma, actor, projectIdSchema.parse(params.projectId)) }),
);

/** `{"pipeline":"hallucination","endpointId":…,"videoIds"?:[…],"dimension"?:…,"batch"?:true}`; no videoIds = every video with frames; `batch` needs an endpoint that supports the Batch API. */
export const POST = withActor<Params>(async (request, actor, params) => {
  const input = await parseJsonBody(request, createRunSchema);
  const run = await createRun({ prisma, queue: appJudgeQueue(), pipelines: PIPELINES }, actor, projectIdSchema.parse(params.projectId), input);
  return Response.json(run, { status: 201 });
});
