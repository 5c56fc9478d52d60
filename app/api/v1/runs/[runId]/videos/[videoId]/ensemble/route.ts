import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoEnsembleValues } from "@/lib/ensembles/ensemble-report";
import { recordIdSchema } from "@/lib/validation/ids";

/** One video's combined scores in an ensemble run with each sample's or judge's value and reason (withheld while the video is blind to the caller). */
export const GET = withActor<{ runId: string; videoId: string }>(async (_request, actor, params) =>
  Response.json({ ensemble: await videoEnsembleValues(prisma, actor, recordIdSchema.parse(params.runId), recordIdSchema.parse(params.videoId)) }),
);
