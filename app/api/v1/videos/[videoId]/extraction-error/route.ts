import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { recordExtractionError } from "@/lib/videos/frame-sets";
import { extractionErrorSchema } from "@/lib/videos/videos.validation";

export const POST = withActor<{ videoId: string }>(async (request, actor, params) => {
  const { message } = await parseJsonBody(request, extractionErrorSchema);
  await recordExtractionError(appDeps(), actor, z.string().min(1).max(64).parse(params.videoId), message);
  return new Response(null, { status: 204 });
});
