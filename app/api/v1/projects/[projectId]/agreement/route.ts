import { withProject } from "@/lib/api/with-project";
import { agreementFileName, projectAgreement } from "@/lib/agreement/load";
import { reportCsv } from "@/lib/agreement/report-csv";
import { agreementQuerySchema } from "@/lib/agreement/report-filter";
import { download } from "@/lib/api/openapi/route-builders";
import { csvRow } from "@/lib/format/csv";
import { pairwiseAgreementExportRows } from "@/lib/pairwise/reports/agreement-export-rows";

/** GET /api/v1/projects/:id/agreement?<video filters>&threshold=&overallThreshold=&format=json|csv */
export const GET = withProject(
  "export.read",
  {
    summary: "Agreement between reviewers and with the judge",
    query: agreementQuerySchema,
    responses: [
      download("The report; the CSV adds each pair set's pairwise agreement rows (`pairwise:<rater>|<reference>`).", [
        "application/json",
        "text/csv",
      ]),
    ],
  },
  async ({ prisma, access, query, catalogue }) => {
    const { projectId } = access;
    const report = await projectAgreement(prisma, access, query, catalogue);
    if (query.format === "csv") {
      // The pair sets' agreement rows follow the report's, in the same columns.
      const pairwise = (await pairwiseAgreementExportRows(prisma, access)).map(csvRow).join("");
      return new Response(reportCsv(report) + pairwise, {
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
