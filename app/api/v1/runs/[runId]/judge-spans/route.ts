import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { rederiveRunJudgeSpans } from "@/lib/spans/judge-spans-store";
import { requireRunVideosInView } from "@/lib/spans/span-visibility";
import { appDeps } from "@/lib/videos/app-deps";

/** Derives a run's judge spans again from its stored answers: for a run that finished before its task said where. */
export const POST = withProjectOf(
  runLookup(),
  "runs.manage",
  {
    summary: "Derive a run's judge spans again",
    description:
      "Replaces every judge span of the run with the ones its finished videos' stored answers give (no call is made): " +
      "`{runId, videos, spans, skipped: [{videoId, reason}], refused: [{videoId, reason}]}` (no span itself: the " +
      "caller may be reviewing one of the videos blind). A run whose task does not say where in a video is a 400; a 409 " +
      "`withheld` while the caller reviews any of the run's finished videos blind.",
    responses: [ok("What was derived.")],
    errors: [409],
  },
  async ({ actor, record }) => {
    await requireRunVideosInView(appDeps().prisma, actor.userId, record.id, "Deriving this run's judge spans");
    const result = await rederiveRunJudgeSpans(appDeps(), record.id);
    return Response.json({ ...result, refused: result.refused.map(({ videoId, reason }) => ({ videoId, reason })) });
  },
);
