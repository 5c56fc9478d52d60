import { wholeVideoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { created } from "@/lib/api/openapi/route-builders";
import { appDeps } from "@/lib/videos/app-deps";
import { createGoldSpan, goldSpanInputSchema } from "@/lib/spans/gold-spans";
import { spanRecordSchema } from "@/lib/spans/span-validation";

/** Sets a gold span (owners): drawn, or accepted from another span of the video; changed and withdrawn at /spans/{id}. */
export const POST = withProjectOf(
  wholeVideoLookup(),
  "gold.set",
  {
    summary: "Set a gold span of the video (owners)",
    description:
      "A span's fields (`{task, label, startFrame, endFrame}` or seconds, optional `boxes`, `note`), or `{fromSpanId, note?}` to accept a reviewer's span. Change or withdraw it with PATCH/DELETE /spans/{spanId} and its version (409 when stale).",
    body: { kind: "json", schema: goldSpanInputSchema },
    responses: [created("The gold span.", spanRecordSchema)],
    errors: [403, 404, 422],
  },
  async ({ access, record: video, body, catalogue }) =>
    Response.json(await createGoldSpan(appDeps(), access, video, body, catalogue.declarations()), { status: 201 }),
);
