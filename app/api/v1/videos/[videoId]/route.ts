import { parseJsonBody, parseOptionalJsonBody, withActor } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteOneVideoSchema, deleteVideo } from "@/lib/videos/delete-videos";
import { getVideoDetail, videoJson } from "@/lib/videos/queries";
import { editVideo, videoEditSchema } from "@/lib/videos/video-edits";
import { recordIdSchema } from "@/lib/validation/ids";

const videoIdSchema = recordIdSchema;

export const GET = withActor<{ videoId: string }>(async (_request, actor, params) => Response.json(await getVideoDetail(appDeps(), actor, videoIdSchema.parse(params.videoId))));

/** Changes the video's prompt, model, dimensions, seed, sample index or extra fields (owners); the edit is kept in its history. */
export const PATCH = withActor<{ videoId: string }>(async (request, actor, params) => {
  const { video, changes } = await editVideo(appDeps(), actor, videoIdSchema.parse(params.videoId), await parseJsonBody(request, videoEditSchema));
  return Response.json({ ...videoJson(video), changes });
});

/** Deletes the video with what depends on it (owners); `{"dryRun": true}` only counts it. */
export const DELETE = withActor<{ videoId: string }>(async (request, actor, params) =>
  Response.json(await deleteVideo(appDeps(), actor, videoIdSchema.parse(params.videoId), await parseOptionalJsonBody(request, deleteOneVideoSchema))),
);
