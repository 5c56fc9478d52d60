import { withProject } from "@/lib/api/with-project";
import { previewRubric } from "@/lib/rubrics/preview-rubric";
import { rubricPreviewSchema } from "@/lib/rubrics/rubrics.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** `{"definition","videoId","endpointId","scopeIndex"?}` (owners): one scope judged as a run would, answered from the response cache when it can. */
export const POST = withProject(
  "rubrics.manage",
  {
    summary: "Judge one video (one key frame or cluster) with a definition before a run (owners)",
    description:
      "The request a run would send: the same frames, prompt and response format, and so the same response-cache key (`cached: true` when answered from it). A bad definition → 400 invalid_rubric; a video without the frames the definition needs → 400; the endpoint timing out → 504 endpoint_timeout, rate limiting → 502 endpoint_rate_limited, any other failure → 502 endpoint_error.",
    body: { kind: "json", schema: rubricPreviewSchema },
    responses: [ok("`{prompt, frames, scope, rawAnswer, parsed, parseError, cached, latencyMs}`.")],
    errors: [502, 504],
  },
  async ({ prisma, request, access, body }) =>
    Response.json(await previewRubric(prisma, access, body, { signal: request.signal })),
);
