import { frameLookup } from "@/lib/api/project-lookups";
import { rangeResponse } from "@/lib/api/range";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { projectFrame } from "@/lib/videos/queries";
import { download } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  frameLookup,
  "project.view",
  {
    summary: "One frame (JPEG), with Range support",
    responses: [
      download("The JPEG.", ["image/jpeg"]),
      { status: 206, description: "The requested range.", contentTypes: ["image/jpeg"] },
    ],
    errors: [416],
  },
  async ({ access, record, request }) => {
    const deps = appDeps();
    const frame = await projectFrame(deps, access, record.id);
    return rangeResponse(request, frame.sizeBytes, (range) => deps.storage.get(frame.storageKey, range), {
      "content-type": "image/jpeg",
      etag: `"${frame.sha256}"`,
    });
  },
);
