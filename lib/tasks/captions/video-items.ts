import type { ProjectAccess } from "../../authz/permissions";
import type { PrismaClient } from "../../generated/prisma/client";
import { listItems } from "../../items/items";
import { itemFilterSchema } from "../../items/item-filter";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import type { VideoItemList } from "../../task-modules/task-module";

/** The video page's card of the video's captions (the first 100), each linked to its caption page. */
export async function videoCaptionList(
  prisma: PrismaClient,
  access: ProjectAccess,
  videoId: string,
): Promise<VideoItemList | null> {
  const { projectId } = access;
  const captions = await listItems(
    prisma,
    access,
    itemFilterSchema(builtInCatalogue()).parse({ kind: "caption", videoId, pageSize: 100 }),
  );
  if (captions.total === 0) return null;
  return {
    title: `Captions of this video (${captions.total})`,
    testId: "video-captions",
    itemTestId: "video-caption",
    items: captions.items.map((caption) => ({
      id: caption.id,
      href: `/projects/${projectId}/captions/${caption.id}`,
      tag: caption.captionType,
      model: caption.model,
      text: "output" in caption ? caption.output : caption.externalId,
    })),
    more:
      captions.total > captions.items.length
        ? {
            href: `/projects/${projectId}/captions?videoId=${encodeURIComponent(videoId)}`,
            label: `all ${captions.total} captions`,
          }
        : null,
  };
}
