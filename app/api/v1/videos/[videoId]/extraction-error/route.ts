import { parseJsonBody } from "@/lib/api/handler";
import { videoScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { recordExtractionError } from "@/lib/videos/frame-sets";
import { extractionErrorSchema } from "@/lib/videos/videos.validation";

export const POST = withProjectOf(videoScope(), "project.view", async ({ actor, record, request }) => {
  const { message } = await parseJsonBody(request, extractionErrorSchema);
  await recordExtractionError(appDeps(), actor, record.id, message);
  return new Response(null, { status: 204 });
});
