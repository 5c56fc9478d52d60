import type { ProjectAccess } from "../authz/permissions";
import type { PrismaClient } from "../generated/prisma/client";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import type { VideoItemList } from "../task-modules/task-module";

/**
 * The catalogue's tasks' lists of one video's items for the video page (`videoItemList` of each module), in catalogue
 * order; tasks with none for the video are left out.
 */
export async function videoItemLists(
  prisma: PrismaClient,
  access: ProjectAccess,
  videoId: string,
  given?: TaskCatalogue,
): Promise<VideoItemList[]> {
  const lists = await Promise.all(
    (await catalogueOf(prisma, access.projectId, given)).modules.flatMap((task) =>
      task.videoItemList ? [task.videoItemList(prisma, access, videoId)] : [],
    ),
  );
  return lists.filter((list): list is VideoItemList => list !== null);
}
