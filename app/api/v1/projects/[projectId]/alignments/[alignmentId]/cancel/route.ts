import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { cancelAlignment } from "@/lib/alignment/alignment-runs";

type Params = { projectId: string; alignmentId: string };

/** Owners: stops a queued or running alignment (its judge run in progress is cancelled too). */
export const POST = withProject<Params>("project.view", async ({ actor, project, params }) =>
  Response.json(await cancelAlignment(prisma, actor, project.id, recordIdSchema.parse(params.alignmentId))),
);
