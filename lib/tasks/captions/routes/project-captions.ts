import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { listItems } from "@/lib/items/items";
import { itemFilterSchema } from "@/lib/items/item-filter";
import { searchParamsObject } from "@/lib/videos/video-filter";

type Params = { projectId: string };

/** `?model=&type=&videoId=&setId=&kind=caption|caption_reference&page=&pageSize=`: one page of the project's captions. */
export const GET = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const filter = itemFilterSchema().parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await listItems(prisma, actor, project.id, filter));
});
