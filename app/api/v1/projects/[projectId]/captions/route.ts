import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { listItems } from "@/lib/items/items";
import { itemFilterSchema } from "@/lib/items/items.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

/** `?model=&type=&videoId=&setId=&kind=caption|caption_reference&page=&pageSize=`: one page of the project's captions. */
export const GET = withActor<Params>(async (request, actor, params) => {
  const filter = itemFilterSchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await listItems(prisma, actor, projectIdSchema.parse(params.projectId), filter));
});
