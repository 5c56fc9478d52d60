import { withProject } from "@/lib/api/with-project";
import { paperTableQuerySchema } from "@/lib/calibration/calibration.validation";
import { calibrationReport } from "@/lib/tasks/hallucination/paper-table-load";
import { calibrationLatex, paperTableCsv } from "@/lib/tasks/hallucination/paper-table-export";
import { prisma } from "@/lib/db/prisma";
import { download } from "@/lib/api/openapi/route-builders";

/** GET /api/v1/projects/:id/calibration?labelSetId=&runId=&annotator=&threshold=&seed=&iterations=&format=json|csv|latex — the paper's table. */
export const GET = withProject(
  "export.read",
  {
    summary: "The paper's table: the judge against a label set",
    query: paperTableQuerySchema,
    responses: [download("The report.", ["application/json", "text/csv", "application/x-latex"])],
  },
  async ({ access, project, query }) => {
    const projectId = project.id;
    const { format, ...scope } = query;
    const report = await calibrationReport(prisma, access, scope);
    const headers = (type: string, extension: string) => ({
      "content-type": `${type}; charset=utf-8`,
      "content-disposition": `attachment; filename="framejury-${projectId}-paper-table-${report.run.id}.${extension}"`,
      "cache-control": "no-store",
    });
    if (format === "csv")
      return new Response(
        paperTableCsv(report.table, {
          labelSet: report.labelSet.name,
          runId: report.run.id,
          threshold: report.threshold,
        }),
        { headers: headers("text/csv", "csv") },
      );
    if (format === "latex")
      return new Response(calibrationLatex(report), { headers: headers("application/x-latex", "tex") });
    return Response.json(report, { headers: { "cache-control": "no-store" } });
  },
);
