import { withActor } from "@/lib/api/handler";
import { listProjectDeletions } from "@/lib/projects/project-deletion";
import { ok } from "@/lib/api/openapi/route-builders";

/** The caller's project deletions (a site admin's: everyone's) still going or ended in the last day, newest first. */
export const GET = withActor(
  {
    summary: "The caller's project deletions",
    description:
      "Those still going or ended in the last day, newest first (a site admin: everyone's), with their progress.",
    responses: [
      ok(
        "`{deletions: [{id, projectId, projectName, status, counts, videosTotal, videosDeleted, storageRemoved, cancelRequested, error, createdAt, finishedAt}]}`.",
      ),
    ],
  },
  async (_request, actor, _params, _input, prisma) =>
    Response.json({ deletions: await listProjectDeletions(prisma, actor) }),
);
