import { withActor } from "@/lib/api/handler";
import { rangeResponse } from "@/lib/api/range";
import { NotFoundError } from "@/lib/errors";
import { appDeps } from "@/lib/videos/app-deps";
import { findVideoForActor } from "@/lib/videos/frame-sets";
import { recordIdSchema } from "@/lib/validation/ids";

/** The video for playback, members only, with Range support. */
export const GET = withActor<{ videoId: string }>(async (request, actor, params) => {
  const deps = appDeps();
  const video = await findVideoForActor(deps, actor, recordIdSchema.parse(params.videoId), "project.view");
  const stat = await deps.storage.stat(video.storageKey);
  if (!stat) throw new NotFoundError("The video file is missing from storage.");
  return rangeResponse(request, stat.size, (range) => deps.storage.get(video.storageKey, range), {
    "content-type": video.contentType,
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(video.fileName)}`,
  });
});
