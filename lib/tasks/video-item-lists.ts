import type { Actor } from "../auth/actor";
import type { PrismaClient } from "../generated/prisma/client";
import { installedTaskModules } from "../task-modules/installed-task-modules";
import type { VideoItemList } from "./task-module";

/** The registered tasks' lists of one video's items for the video page (`videoItemList` of each module, read at call time), in registry order; tasks with none for the video are left out. */
export async function videoItemLists(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  videoId: string,
): Promise<VideoItemList[]> {
  const lists = await Promise.all(
    installedTaskModules().flatMap((task) =>
      task.videoItemList ? [task.videoItemList(prisma, actor, projectId, videoId)] : [],
    ),
  );
  return lists.filter((list): list is VideoItemList => list !== null);
}
