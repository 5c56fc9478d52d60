import { withActor } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { videoJson } from "@/lib/videos/queries";
import { completeUpload } from "@/lib/videos/upload-sessions";
import { recordIdSchema } from "@/lib/validation/ids";

export const POST = withActor<{ uploadId: string }>(async (_request, actor, params) => {
  const video = await completeUpload(appDeps(), actor, recordIdSchema.parse(params.uploadId));
  return Response.json(videoJson(video), { status: 201 });
});
