import { withProject } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { getAlignment } from "@/lib/alignment/alignment-runs";
import { ok } from "@/lib/api/openapi/route-builders";

/** One alignment: its input, progress, and its report (the split, every candidate with its train score, held-out results). */
export const GET = withProject(
  "project.view",
  {
    summary: "One alignment: input, progress and report",
    responses: [
      ok(
        "The split, every candidate with its train κ/F1, held-out κ/F1 of the baseline and the best with the paired-bootstrap interval and p-value, calls and cost.",
      ),
    ],
  },
  async ({ prisma, access, params }) =>
    Response.json(await getAlignment(prisma, access, recordIdSchema.parse(params.alignmentId))),
);
