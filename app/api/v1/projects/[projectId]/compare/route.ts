import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { compareSamples } from "@/lib/videos/compare-samples";
import { compareQuerySchema } from "@/lib/videos/compare-samples.validation";
import { recordIdSchema } from "@/lib/validation/ids";

/** Every sample of one prompt (`?videoId=` or `?prompt=`, optional `&model=`), grouped by model and sample index. */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const query = compareQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await compareSamples(prisma, actor, recordIdSchema.parse(params.projectId), query));
});
