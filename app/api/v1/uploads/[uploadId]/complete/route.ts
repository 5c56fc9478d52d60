import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { videoJson } from "@/lib/videos/queries";
import { completeUpload } from "@/lib/videos/upload-sessions";

export const POST = withActor<{ uploadId: string }>(async (_request, actor, params) => {
  const video = await completeUpload(appDeps(), actor, z.string().min(1).max(64).parse(params.uploadId));
  return Response.json(videoJson(video), { status: 201 });
});
