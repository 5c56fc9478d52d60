import { withProject } from "@/lib/api/with-project";
import { compareSamples } from "@/lib/videos/compare-samples";
import { compareQuerySchema } from "@/lib/videos/compare-samples.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** Every sample of one prompt (`?videoId=` or `?prompt=`, optional `&model=`), grouped by model and sample index. */
export const GET = withProject(
  "project.view",
  {
    summary: "Every sample of one prompt, grouped by model and sample index",
    // Read by the handler with Object.fromEntries, which keeps an empty or repeated value that the wrapper's parse would leave out.
    query: { readBy: "handler", schema: compareQuerySchema },
    responses: [ok("The samples.")],
  },
  async ({ access, prisma, request }) => {
    const query = compareQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await compareSamples(prisma, access, query));
  },
);
