import { wholeVideoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { appDeps } from "@/lib/videos/app-deps";
import { videoFrameTimes } from "@/lib/spans/video-frame-times";

/** Each decoded frame's presentation time: what frame indices of spans mean, in seconds. */
export const GET = withProjectOf(
  wholeVideoLookup(),
  "project.view",
  {
    summary: "A video's frame times",
    description:
      "`{timesS, endS, variable}`: frame i is shown from `timesS[i]`; read once from the container by a worker when the video's frames are registered (409 `frame_times_pending` until then).",
    responses: [ok("The frame times.")],
    errors: [409],
  },
  async ({ record: video }) => {
    return Response.json(await videoFrameTimes(appDeps(), video), {
      headers: { "Cache-Control": "private, max-age=3600" },
    });
  },
);
