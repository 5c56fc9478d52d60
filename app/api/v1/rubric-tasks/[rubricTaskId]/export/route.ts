import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { rubricTaskFile } from "@/lib/rubrics/rubric-export";
import { rubricExportQuerySchema, rubricTaskIdSchema } from "@/lib/rubrics/rubrics.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?version=` (the latest when absent): the version as a YAML file to import elsewhere (members). */
export const GET = withActor<{ rubricTaskId: string }>(async (request, actor, params) => {
  const { version } = rubricExportQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const file = await rubricTaskFile(prisma, actor, rubricTaskIdSchema.parse(params.rubricTaskId), version);
  return new Response(file.text, {
    headers: {
      "content-type": "application/yaml; charset=utf-8",
      "content-disposition": `attachment; filename="${file.fileName}"; filename*=UTF-8''${file.encodedFileName}`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
