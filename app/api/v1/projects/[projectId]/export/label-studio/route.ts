import { z } from "zod";
import { withProject } from "@/lib/api/with-project";
import { runLabelStudioExport } from "@/lib/export/label-studio";
import { download } from "@/lib/api/openapi/route-builders";

const querySchema = z.object({ runId: z.string().min(1).max(100), part: z.enum(["tasks", "config"]).default("tasks") });

/** GET /api/v1/projects/:id/export/label-studio?runId=…&part=tasks|config: Label Studio tasks JSON with the judge's predictions, or its labelling config. */
export const GET = withProject(
  "export.read",
  {
    summary: "A run's videos as Label Studio tasks with the judge's predictions, or the labelling config",
    query: querySchema,
    responses: [
      download("The tasks JSON or the config XML, as an attachment.", ["application/json", "application/xml"]),
    ],
  },
  async ({ access, prisma, query }) => {
    const { runId, part } = query;
    const exported = await runLabelStudioExport(prisma, access, runId);
    const [body, type, filename] =
      part === "tasks"
        ? [JSON.stringify(exported.tasks, null, 2), "application/json; charset=utf-8", exported.tasksFileName]
        : [exported.config, "application/xml; charset=utf-8", exported.configFileName];
    return new Response(body, {
      headers: {
        "content-type": type,
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
