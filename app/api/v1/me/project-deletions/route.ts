import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { listProjectDeletions } from "@/lib/projects/project-deletion";

/** The caller's project deletions (a site admin's: everyone's) still going or ended in the last day, newest first. */
export const GET = withActor(async (_request, actor) => Response.json({ deletions: await listProjectDeletions(prisma, actor) }));
