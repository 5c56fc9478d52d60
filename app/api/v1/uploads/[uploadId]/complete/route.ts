import { uploadScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { appDeps } from "@/lib/videos/app-deps";
import { videoJson } from "@/lib/videos/queries";
import { completeUpload } from "@/lib/videos/upload-sessions";

export const POST = withProjectOf(uploadScope(recordIdSchema), "project.view", async ({ actor, record }) => {
  const video = await completeUpload(appDeps(), actor, record.id);
  return Response.json(videoJson(video), { status: 201 });
});
