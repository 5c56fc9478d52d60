import { wholeVideoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { accepted, ok } from "@/lib/api/openapi/route-builders";
import { appDeps } from "@/lib/videos/app-deps";
import { frameTimesOrPending } from "@/lib/videos/video-frame-times";
import { queueFrameTimes } from "@/lib/videos/frame-times-jobs";
import { frameTimesAnswerSchema, frameTimesPendingAnswerSchema } from "@/lib/spans/span-validation";

/** Each decoded frame's presentation time: what frame indices of spans mean, in seconds. */
export const GET = withProjectOf(
  wholeVideoLookup(),
  "project.view",
  {
    summary: "A video's frame times",
    description:
      "`{timesS, endS, variable}`: frame i is shown from `timesS[i]`; read once from the container by a worker when the video's frames are registered. Until then 202 `{pending: true, message}` (asking queues the video's job if none waits; ask again shortly). A file with no readable frames is a 422 with the reason.",
    responses: [
      ok("The frame times.", frameTimesAnswerSchema),
      accepted("`{pending: true, message}`: a worker has yet to read them.", frameTimesPendingAnswerSchema),
    ],
    errors: [422],
  },
  async ({ record: video }) => {
    const times = await frameTimesOrPending({ ...appDeps(), queueFrameTimes: (ids) => queueFrameTimes(ids) }, video);
    if ("pending" in times) return Response.json(times, { status: 202, headers: { "Cache-Control": "no-store" } });
    return Response.json(times, { headers: { "Cache-Control": "private, max-age=3600" } });
  },
);
