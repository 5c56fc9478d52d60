import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { applyAlignedSettings } from "@/lib/alignment/alignment-runs";

type Params = { projectId: string; alignmentId: string };

/** Owners: the chosen settings of a built-in alignment become the project's defaults for the pipeline's new runs. */
export const POST = withProject<Params>("project.view", async ({ actor, project, params }) =>
  Response.json(await applyAlignedSettings(prisma, actor, project.id, recordIdSchema.parse(params.alignmentId))),
);
