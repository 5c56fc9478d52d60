import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { rederiveRunJudgeSpans } from "@/lib/spans/judge-spans-store";
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
      "caller may be reviewing one of the videos blind). A run whose task does not say where in a video is a 400.",
    responses: [ok("What was derived.")],
  },
  async ({ record }) => {
    const result = await rederiveRunJudgeSpans(appDeps(), record.id);
    return Response.json({ ...result, refused: result.refused.map(({ videoId, reason }) => ({ videoId, reason })) });
  },
);
