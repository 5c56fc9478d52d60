import { withProject } from "@/lib/api/with-project";
import { appContext } from "@/lib/app-context/app-context";
import { appJudgeQueue } from "@/lib/judge/app-judge";
import { listRuns } from "@/lib/judge/runs/runs";
import { runRequestSchema, startRunRequest } from "@/lib/judge/runs/run-manifest";
import { runDryRunAnswerSchema } from "@/lib/judge/runs/runs.types";
import { ok, created } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The project's runs",
    responses: [ok("`{runs: [...]}`.")],
  },
  async ({ prisma, access }) => Response.json({ runs: await listRuns(prisma, access) }),
);

/**
 * `{"pipeline":<a registered pipeline id>,"endpointId":…,"videoIds"?:[…],"dimension"?:…,"batch"?:true,"dryRun"?:true,
 * "budgetUsd"?:…,"inputMode"?:…}`; no videoIds = every video with frames; `batch` needs an endpoint that supports the
 * Batch API.
 */
export const POST = withProject(
  "runs.manage",
  {
    summary: "Start a run",
    description:
      "No `videoIds`: every video with the frame set the pipeline needs. `batch` needs an endpoint that supports the Batch API. `dryRun: true` starts nothing and answers the run's cost estimate (calls, images, video frames and seconds, input and output tokens, price); a started run keeps the same estimate. `budgetUsd` stops the run, resumable, once its calls cost that much. `inputMode` (`images`, `video-frames`, `video-file`; default: the endpoint's) is how the run shows videos to the judge, kept with the run; a mode the endpoint's probe saw refused is a 400 quoting the endpoint. `{manifest, endpointId?}` runs a downloaded run manifest again (on its endpoint, or the one named): a prompt version it names that no longer exists is a 404, one whose text changed a 409. `sweep: {inputModes: [...]}` or `sweep: {frameCounts: [...]}` (frame counts only for a task whose frames are a uniform set of `settings.frames`) starts one run per value, every other setting the same, saved together: one that cannot start saves none.",
    // A manifest of 100,000 videos with their frame sets takes about 8 MiB.
    body: { kind: "json", schema: runRequestSchema, maxBytes: 16 * 1024 * 1024 },
    responses: [
      created(
        '`{id, videos, withoutFrames, withoutFramesCount, beingDeletedCount}` (the videos in scope a queued or running deletion is removing, left out; runs of an item pipeline also `items`, `excludedItems`). A sweep: `{sweep: {field: "inputMode" | "frames", values}, runs: [{id, videos, …}], compareUrl}`, the last the page that puts the runs side by side.',
      ),
      ok(
        "A dry run: `{dryRun: true, videos, withoutFramesCount, beingDeletedCount, estimate, estimateError}` (`estimate` null with `estimateError` when a template would not render).",
        runDryRunAnswerSchema,
      ),
    ],
    // A video deleted while the run was starting: nothing saved, start again.
    errors: [404, 409],
  },
  async ({ prisma, access, body, catalogue }) => {
    const run = await startRunRequest(
      { prisma, queue: appJudgeQueue(), pipelines: catalogue.pipelines, startEnsemble: appContext().startEnsemble },
      access,
      catalogue,
      body,
    );
    return Response.json(run, { status: "dryRun" in run ? 200 : 201 });
  },
);
