import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { getAlignment } from "@/lib/alignment/alignment-runs";

type Params = { projectId: string; alignmentId: string };

/** One alignment: its input, progress, and its report (the split, every candidate with its train score, held-out results). */
export const GET = withProject<Params>("project.view", async ({ actor, project, params }) => Response.json(await getAlignment(prisma, actor, project.id, recordIdSchema.parse(params.alignmentId))));
