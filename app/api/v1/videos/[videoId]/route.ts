import { parseJsonBody, parseOptionalJsonBody } from "@/lib/api/handler";
import { videoScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteOneVideoSchema, deleteVideo } from "@/lib/videos/delete-videos";
import { getVideoDetail, videoJson } from "@/lib/videos/queries";
import { editVideo } from "@/lib/videos/video-edits";
import { videoEditSchema } from "@/lib/videos/video-edits.validation";

export const GET = withProjectOf(videoScope(), "project.view", async ({ actor, record }) => Response.json(await getVideoDetail(appDeps(), actor, record.id)));

/** Changes the video's prompt, model, dimensions, seed, sample index or extra fields (owners); the edit is kept in its history. */
export const PATCH = withProjectOf(videoScope(), "project.view", async ({ actor, record, request }) => {
  const { video, changes } = await editVideo(appDeps(), actor, record.id, await parseJsonBody(request, videoEditSchema));
  return Response.json({ ...videoJson(video), changes });
});

/** Deletes the video with what depends on it (owners); `{"dryRun": true}` only counts it. */
export const DELETE = withProjectOf(videoScope(), "project.view", async ({ actor, record, request }) =>
  Response.json(await deleteVideo(appDeps(), actor, record.id, await parseOptionalJsonBody(request, deleteOneVideoSchema))),
);
