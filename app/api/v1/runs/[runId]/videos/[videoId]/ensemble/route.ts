import { runScope, type ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { videoEnsembleValues } from "@/lib/ensembles/ensemble-report";
import { recordIdSchema } from "@/lib/validation/ids";

/** One video's combined scores in an ensemble run with each sample's or judge's value and reason (withheld while the video is blind to the caller). */
export const GET = withProjectOf<{ runId: string; videoId: string }, ScopedRecord>(runScope(), "project.view", async ({ actor, record, params }) =>
  Response.json({ ensemble: await videoEnsembleValues(prisma, actor, record.id, recordIdSchema.parse(params.videoId)) }),
);
