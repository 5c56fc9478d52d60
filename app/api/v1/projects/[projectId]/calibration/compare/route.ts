import { withProject } from "@/lib/api/with-project";
import { compareSetupsQuerySchema } from "@/lib/calibration/calibration.validation";
import { compareSetupsReport } from "@/lib/calibration/compare-setups-load";
import { download } from "@/lib/api/openapi/route-builders";

/** GET /api/v1/projects/:id/calibration/compare?runIds=a,b[,…]&target=&labelSetId=|reference=consensus|reference=gold&annotator=&seed=&iterations= */
export const GET = withProject(
  "export.read",
  {
    summary: "Judge setups compared against a reference",
    query: compareSetupsQuerySchema,
    responses: [download("The comparison.", ["application/json", "text/csv"])],
  },
  async ({ prisma, access, query }) => {
    return Response.json(await compareSetupsReport(prisma, access, query), {
      headers: { "cache-control": "no-store" },
    });
  },
);
