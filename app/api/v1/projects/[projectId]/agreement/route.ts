import { withProject } from "@/lib/api/with-project";
import { agreementFileName, projectAgreement } from "@/lib/agreement/load";
import { reportCsv } from "@/lib/agreement/report-csv";
import { agreementQuerySchema } from "@/lib/agreement/scope";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { prisma } from "@/lib/db/prisma";

/** GET /api/v1/projects/:id/agreement?<video filters>&threshold=&overallThreshold=&format=json|csv */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const projectId = project.id;
  const query = agreementQuerySchema().parse(searchParamsObject(new URL(request.url).searchParams));
  const report = await projectAgreement(prisma, actor, projectId, query);
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
});
