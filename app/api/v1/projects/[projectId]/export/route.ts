import { withProject } from "@/lib/api/with-project";
import { projectExport } from "@/lib/agreement/export";
import { exportQuerySchema } from "@/lib/agreement/report-filter";
import { download } from "@/lib/api/openapi/route-builders";

/** GET /api/v1/projects/:id/export?<video filters>&format=csv|jsonl: every judged item, streamed. */
export const GET = withProject(
  "export.read",
  {
    summary: "Every judged item of the filtered videos with each reviewer's judgment, streamed",
    query: exportQuerySchema,
    responses: [download("The export, as an attachment.", ["text/csv", "application/x-ndjson"])],
  },
  async ({ prisma, access, query, catalogue }) => {
    const { stream, contentType, filename } = await projectExport(prisma, access, query, catalogue);
    return new Response(stream, {
      headers: {
        "content-type": contentType,
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
