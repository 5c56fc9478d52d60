import { withProject } from "@/lib/api/with-project";
import { agreementFileName, projectAgreement } from "@/lib/agreement/load";
import { reportCsv } from "@/lib/agreement/report-csv";
import { agreementQuerySchema } from "@/lib/agreement/report-filter";
import { download } from "@/lib/api/openapi/route-builders";

/** GET /api/v1/projects/:id/agreement?<video filters>&threshold=&overallThreshold=&format=json|csv */
export const GET = withProject(
  "export.read",
  {
    summary: "Agreement between reviewers and with the judge",
    query: agreementQuerySchema,
    responses: [download("The report.", ["application/json", "text/csv"])],
  },
  async ({ prisma, actor, project, query, catalogue }) => {
    const projectId = project.id;
    const report = await projectAgreement(prisma, actor, projectId, query, catalogue);
    if (query.format === "csv") {
      return new Response(reportCsv(report), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${await agreementFileName(prisma, projectId, query, "csv")}"`,
          "cache-control": "no-store",
        },
      });
    }
    return Response.json(report, { headers: { "cache-control": "no-store" } });
  },
);
