import { withProject } from "@/lib/api/with-project";
import { download } from "@/lib/api/openapi/route-builders";
import { exportFileName } from "@/lib/agreement/export-file-name";
import { projectSpanAgreement, spanAgreementQuerySchema } from "@/lib/spans/agreement/load-span-agreement";
import { spanAgreementCsv } from "@/lib/spans/agreement/span-agreement-csv";

/** GET /api/v1/projects/:id/agreement/spans?task=&runId=&label=&format=json|csv */
export const GET = withProject(
  "export.read",
  {
    summary: "Agreement on where: span agreement per label",
    description:
      "For the task's spans (`task`, required), between every two people and pooled, and between each judge run (only `runId` when given) and each person, the people pooled and the gold: spans matched one to one greedily by temporal IoU on frames (ties: earlier start, shorter span, id); precision, recall and F1 at IoU ≥ 0.1, 0.3, 0.5 and 0.7 (the person the reference, the judge the prediction); the mean IoU of pairs matched at 0.1; Cohen's κ and Krippendorff's α on frames; the box IoU of matched spans with boxes; each with a seeded 95% bootstrap interval over videos. `label` reports one label (the same numbers as in the whole report). Computed from every span that counts; 409 `withheld` while the caller reviews any of the videos blind. `format=csv`: one row per label, comparison and statistic. `byGenerator` (the CSV's `generator` column) repeats the comparisons over each generator's (`video.model`) videos alone.",
    query: spanAgreementQuerySchema,
    responses: [download("The span agreement report.", ["application/json", "text/csv"])],
    errors: [409],
  },
  async ({ prisma, access, project, query, catalogue }) => {
    const { format, ...scope } = query;
    const report = await projectSpanAgreement(prisma, access, scope, catalogue);
    if (format === "csv") {
      const filename = exportFileName({
        project: project.name,
        what: "span-agreement",
        filter: { task: scope.task, runId: scope.runId, label: scope.label },
        date: new Date(),
        extension: "csv",
      });
      return new Response(spanAgreementCsv(report), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${filename}"`,
          "cache-control": "no-store",
        },
      });
    }
    return Response.json(report, { headers: { "cache-control": "no-store" } });
  },
);
