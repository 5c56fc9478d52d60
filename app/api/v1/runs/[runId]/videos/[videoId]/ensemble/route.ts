import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { videoEnsembleValues } from "@/lib/ensembles/ensemble-report";
import { recordIdSchema } from "@/lib/validation/ids";
import { ok } from "@/lib/api/openapi/route-builders";

/** One video's combined scores in an ensemble run with each sample's or judge's value and reason (withheld while the video is blind to the caller). */
export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "One video's combined scores with each member's value and reason",
    responses: [
      ok(
        "`{ensemble}`: `{kind, combine, blind, scores: [{category, value, n, sd, range, entropy, unstable, members: [{memberIndex, runId, value, reason}]}]}`, or null for a plain run.",
      ),
    ],
  },
  async ({ prisma, access, record, params }) =>
    Response.json({
      ensemble: await videoEnsembleValues(prisma, access, record.id, recordIdSchema.parse(params.videoId)),
    }),
);
