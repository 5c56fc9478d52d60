import { videoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { deleteOneVideoSchema, deleteVideo } from "@/lib/videos/delete-videos";
import { getVideoDetail, videoJson } from "@/lib/videos/queries";
import { editVideo } from "@/lib/videos/video-edits";
import { videoEditAnswerSchema, videoEditSchema } from "@/lib/videos/video-edits.validation";
import { videoDetailAnswerSchema } from "@/lib/videos/videos.validation";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  videoLookup(),
  "project.view",
  {
    summary: "A video's metadata and frame sets with frames",
    responses: [ok("The video.", videoDetailAnswerSchema)],
  },
  async ({ access, record }) => Response.json(await getVideoDetail(appDeps(), access, record.id)),
);

/** Changes the video's prompt, model, dimensions, seed, sample index or extra fields (owners); the edit is kept in its history. */
export const PATCH = withProjectOf(
  videoLookup(),
  "videos.edit",
  {
    summary: "Change a video's fields (owners)",
    description:
      'Only the fields given change; null or "" clears one; with `expectedUpdatedAt` a video changed since → 409.',
    body: { kind: "json", schema: videoEditSchema },
    responses: [ok("The video with `changes` `[{field, before, after, overwrite}]`.", videoEditAnswerSchema)],
    errors: [409],
  },
  async ({ access, record, body }) => {
    const { video, changes } = await editVideo(appDeps(), access, record.id, body);
    return Response.json({ ...videoJson(video), changes });
  },
);

/** Deletes the video with what depends on it (owners); `{"dryRun": true}` only counts it. */
export const DELETE = withProjectOf(
  videoLookup(),
  "videos.delete",
  {
    summary: "Delete a video with what depends on it (owners)",
    body: { kind: "json", schema: deleteOneVideoSchema, optional: true },
    responses: [ok("`{dryRun, counts, storage, deletion: null}` (one video is always deleted in the request).")],
    errors: [409],
  },
  async ({ access, record, body }) => Response.json(await deleteVideo(appDeps(), access, record.id, body)),
);
