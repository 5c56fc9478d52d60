import { videoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { recordExtractionError } from "@/lib/videos/frame-sets";
import { extractionErrorSchema } from "@/lib/videos/videos.validation";
import { noContent } from "@/lib/api/openapi/route-builders";

export const POST = withProjectOf(
  videoLookup(),
  "videos.import",
  {
    summary: "Record that the browser could not extract frames",
    body: { kind: "json", schema: extractionErrorSchema },
    responses: [noContent("Recorded.")],
  },
  async ({ access, record, body }) => {
    const { message } = body;
    await recordExtractionError(appDeps(), access, record.id, message);
    return new Response(null, { status: 204 });
  },
);
