import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { replayCall, replayInputSchema } from "@/lib/judge/calls/call-replay";
import { endpointConfigForRun } from "@/lib/judge/endpoints/endpoints";
import { clientForEndpoint } from "@/lib/judge/calls/llm-client";
import { getStorage } from "@/lib/storage/storage";
import { recordIdSchema } from "@/lib/validation/ids";

/** One call of a run sent again from its record, or (a dry run) the request body that would be sent. */
export const POST = withProjectOf(
  runLookup("No such call in this run."),
  "runs.manage",
  {
    summary: "Replay a judge call from its record",
    description:
      "Rebuilds the call's request from its record (the prompt, the frames by id, the input mode, the media's shape and " +
      "the generation parameters). `dryRun` (default true) answers `{dryRun: true, callId, mode, bytes, body}` with the " +
      "exact body that would be sent; `dryRun: false` sends it to the run's endpoint and answers `{dryRun: false, callId, " +
      "mode, bytesSent, latencyMs, answer}`. Nothing is stored: a replay bills nothing into the run. A call recorded " +
      "before its record kept what replaying needs, or whose frames are gone, is a 409; a scoring call of a video the " +
      "caller reviews blind is a 403.",
    params: { callId: recordIdSchema },
    body: { kind: "json", schema: replayInputSchema, optional: true },
    responses: [ok("The rebuilt body (dry run) or the endpoint's answer to it.")],
    errors: [409],
  },
  async ({ prisma, access, record, params, body, catalogue }) => {
    const deps = {
      prisma,
      storage: getStorage(),
      endpointConfig: (runId: string) => endpointConfigForRun(prisma, runId),
      llmFor: clientForEndpoint,
      tasks: catalogue.tasks,
    };
    const ids = { runId: record.id, callId: recordIdSchema.parse(params.callId) };
    return Response.json(await replayCall(deps, access, ids, body));
  },
);
