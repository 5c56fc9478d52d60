import { wholeVideoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { appDeps } from "@/lib/videos/app-deps";
import { videoFrameTimes } from "@/lib/spans/video-frame-times";
import { queueFrameTimes } from "@/lib/spans/frame-times-jobs";

/** Each decoded frame's presentation time: what frame indices of spans mean, in seconds. */
export const GET = withProjectOf(
  wholeVideoLookup(),
  "project.view",
  {
    summary: "A video's frame times",
    description:
      "`{timesS, endS, variable}`: frame i is shown from `timesS[i]`; read once from the container by a worker when the video's frames are registered (409 `frame_times_pending` until then; asking queues the video's job if none waits). A file with no readable frames is a 422.",
    responses: [ok("The frame times.")],
    errors: [409, 422],
  },
  async ({ record: video }) => {
    return Response.json(
      await videoFrameTimes({ ...appDeps(), queueFrameTimes: (ids) => queueFrameTimes(ids) }, video),
      {
        headers: { "Cache-Control": "private, max-age=3600" },
      },
    );
  },
);
