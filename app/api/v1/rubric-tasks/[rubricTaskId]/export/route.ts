import { rubricTaskLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { rubricTaskFile } from "@/lib/rubrics/rubric-export";
import { rubricExportQuerySchema, rubricTaskIdSchema } from "@/lib/rubrics/rubrics.validation";
import { download } from "@/lib/api/openapi/route-builders";

/** `?version=` (the latest when absent): the version as a YAML file to import elsewhere (members). */
export const GET = withProjectOf(
  rubricTaskLookup(),
  "project.view",
  {
    summary: "A version of a rubric task as a YAML file",
    params: { rubricTaskId: rubricTaskIdSchema },
    query: rubricExportQuerySchema,
    responses: [download("The YAML file, as an attachment.", ["application/yaml"])],
  },
  async ({ prisma, access, record, query }) => {
    const { version } = query;
    const file = await rubricTaskFile(prisma, access, record.id, version);
    return new Response(file.text, {
      headers: {
        "content-type": "application/yaml; charset=utf-8",
        "content-disposition": `attachment; filename="${file.fileName}"; filename*=UTF-8''${file.encodedFileName}`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
