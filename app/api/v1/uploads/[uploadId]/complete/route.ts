import { uploadLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { appDeps } from "@/lib/videos/app-deps";
import { videoJson } from "@/lib/videos/queries";
import { completeUpload } from "@/lib/videos/upload-sessions";
import { videoAnswerSchema } from "@/lib/videos/videos.validation";
import { created } from "@/lib/api/openapi/route-builders";

export const POST = withProjectOf(
  uploadLookup(recordIdSchema),
  "videos.import",
  {
    summary: "Finish an upload (its SHA-256 is checked)",
    responses: [created("The video.", videoAnswerSchema)],
    errors: [409, 422],
  },
  async ({ access, record }) => {
    const video = await completeUpload(appDeps(), access, record.id);
    return Response.json(videoJson(video), { status: 201 });
  },
);
