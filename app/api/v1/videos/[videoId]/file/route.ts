import { videoLookup } from "@/lib/api/project-lookups";
import { rangeResponse } from "@/lib/api/range";
import { withProjectOf } from "@/lib/api/with-project";
import { NotFoundError } from "@/lib/errors";
import { appDeps } from "@/lib/videos/app-deps";
import { findProjectVideo } from "@/lib/videos/frame-sets";
import { download } from "@/lib/api/openapi/route-builders";

/** The video for playback, members only, with Range support. */
export const GET = withProjectOf(
  videoLookup(),
  "project.view",
  {
    summary: "The video file, with Range support",
    responses: [
      download("The video's bytes (206 for a range).", ["video/*"]),
      { status: 206, description: "The requested range.", contentTypes: ["video/*"] },
    ],
    errors: [416],
  },
  async ({ access, record, request }) => {
    const deps = appDeps();
    const video = await findProjectVideo(deps, access, record.id);
    const stat = await deps.storage.stat(video.storageKey);
    if (!stat) throw new NotFoundError("The video file is missing from storage.");
    return rangeResponse(request, stat.size, (range) => deps.storage.get(video.storageKey, range), {
      "content-type": video.contentType,
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(video.fileName)}`,
    });
  },
);
