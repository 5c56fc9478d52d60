import { catalogFor } from "../../task-modules/task-catalogue";
import type { PrismaClient } from "../../generated/prisma/client";
import { roleCan, type ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { redactInspectedStepsFor } from "../../visibility/judge-visibility";
import { withoutServerDetails } from "./step-errors";
import { naturalSortBy } from "../../format/natural-sort";
import { runNameOfRow } from "../../run-records/run-name";
import { sentShapeSchema, storedSaw } from "./call-record";

/**
 * What the call inspector shows for one video of a run: the video's path and the run's name, then each step with
 * its scores (category codes in natural order) and its calls (rendered prompt, frames, raw answer, parse result).
 * The excerpt of an endpoint's error body is for owners only:
 * it is what a misconfigured endpoint (or one pointed somewhere it should not be) answered. A reviewer
 * holding the video blind (lib/visibility) sees the steps that carry no judge values and, of the scoring
 * steps, only their status. Each call comes with what it showed the judge (`saw`, read by lib/judge/calls/call-record.ts)
 * and how many of its frames went as one video part.
 */
export async function inspectRunVideo(prisma: PrismaClient, access: ProjectAccess, runId: string, videoId: string) {
  const { actor, projectId, role } = access;
  const found = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId },
    select: {
      id: true,
      pipeline: true,
      simulated: true,
      createdAt: true,
      endpointSnapshot: true,
      endpoint: { select: { name: true, model: true } },
    },
  });
  if (!found) throw new NotFoundError("No such run.");
  const [steps, video, catalogue] = await Promise.all([
    prisma.stepResult.findMany({
      where: { runId, videoId },
      orderBy: [{ startedAt: "asc" }, { stepId: "asc" }, { scopeIndex: "asc" }],
      include: { calls: { orderBy: { createdAt: "asc" } }, scores: true },
    }),
    prisma.video.findFirst({ where: { id: videoId, projectId }, select: { id: true, relativePath: true } }),
    catalogFor(prisma, projectId),
  ]);
  if (steps.length === 0 || !video) throw new NotFoundError("This video is not in the run.");
  const run = {
    id: found.id,
    pipeline: found.pipeline,
    simulated: found.simulated,
    name: runNameOfRow(found, catalogue),
  };
  const showExcerpts = roleCan(role, "endpoints.manage");
  const shown = steps.map((step) => ({
    ...step,
    // Category codes in natural order: s2 before s10.
    scores: naturalSortBy(step.scores, (score) => score.category),
    error: publicStepError(step.status, step.error),
    calls: step.calls.map((call) => ({
      ...call,
      errorExcerpt: showExcerpts ? call.errorExcerpt : null,
      saw: storedSaw(call.saw),
      videoFrames: videoFramesOf(call.request),
    })),
  }));
  return {
    run,
    video: { id: video.id, path: video.relativePath },
    // Replaying sends to the run's endpoint (lib/judge/calls/call-replay.ts): the owners' action.
    canReplay: roleCan(role, "runs.manage"),
    ...(await redactInspectedStepsFor(prisma, actor.userId, videoId, run.pipeline, shown, catalogue.tasks)),
  };
}

/**
 * A stored step error as shown to members. Errors of failed steps stored before they were
 * sanitised on the way in may still hold server paths or code excerpts; those are taken out here.
 */
export function publicStepError(status: string, error: string | null): string | null {
  if (error === null || status !== "failed") return error;
  return withoutServerDetails(error, 1000);
}

/** How many of a call's frames, from the first, went as one video part: its record's `sent.videoFrames`, else 0. */
function videoFramesOf(request: unknown): number {
  const sent = typeof request === "object" && request !== null && "sent" in request ? request.sent : null;
  const parsed = sentShapeSchema.safeParse(sent);
  return parsed.success ? parsed.data.videoFrames : 0;
}
