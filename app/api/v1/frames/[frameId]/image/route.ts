import { withActor } from "@/lib/api/handler";
import { rangeResponse } from "@/lib/api/range";
import { appDeps } from "@/lib/videos/app-deps";
import { frameForActor } from "@/lib/videos/queries";
import { recordIdSchema } from "@/lib/validation/ids";

export const GET = withActor<{ frameId: string }>(async (request, actor, params) => {
  const deps = appDeps();
  const frame = await frameForActor(deps, actor, recordIdSchema.parse(params.frameId));
  return rangeResponse(request, frame.sizeBytes, (range) => deps.storage.get(frame.storageKey, range), {
    "content-type": "image/jpeg",
    etag: `"${frame.sha256}"`,
  });
});
