import { parseJsonBody, withActor } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { recordExtractionError } from "@/lib/videos/frame-sets";
import { extractionErrorSchema } from "@/lib/videos/videos.validation";
import { recordIdSchema } from "@/lib/validation/ids";

export const POST = withActor<{ videoId: string }>(async (request, actor, params) => {
  const { message } = await parseJsonBody(request, extractionErrorSchema);
  await recordExtractionError(appDeps(), actor, recordIdSchema.parse(params.videoId), message);
  return new Response(null, { status: 204 });
});
