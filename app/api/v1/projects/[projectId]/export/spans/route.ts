import { z } from "zod";
import { withProject } from "@/lib/api/with-project";
import { download } from "@/lib/api/openapi/route-builders";
import { spanExportFile } from "@/lib/spans/span-files/span-export";
import { SPAN_WRITE_FORMAT_IDS, SPAN_WRITE_FORMATS } from "@/lib/spans/span-files/span-file-formats";
import { appDeps } from "@/lib/videos/app-deps";

const text = z.string().trim().min(1).max(200).optional();
const querySchema = z
  .object({
    format: z.enum(SPAN_WRITE_FORMAT_IDS).default("csv"),
    task: text,
    label: text,
    author: text,
    labelSet: text,
  })
  .strict();

/**
 * GET /api/v1/projects/:id/export/spans?format&task&label&author&labelSet: the project's spans in a format the span
 * file formats' table writes (lib/spans/span-files/span-export.ts), whole or withheld while the caller reviews any
 * video of the project blind, whatever the filters.
 */
export const GET = withProject(
  "export.read",
  {
    summary: "The project's spans as CSV, JSONL or Label Studio tasks (with its labelling config)",
    description:
      "Spans that count, narrowed by `task`, `label`, `author` (a user id, `labelset:<id>[:<annotator>]`, `run:<id>` or `gold`) and `labelSet`. CSV and JSONL carry video, video_id, task, label, annotator, author_kind (reviewer, label_set, judge or gold), start_frame, end_frame, start, end, boxes, note; `label-studio` one task per video with timelinelabels and videorectangle results (frames from 1). A 409 `withheld` while the caller reviews any video of the project blind, whatever the filters.",
    query: querySchema,
    responses: [
      download(
        "The spans file, as an attachment.",
        SPAN_WRITE_FORMATS.map((format) => format.write.mediaType),
      ),
    ],
    errors: [409],
  },
  async ({ access, query, catalogue }) => {
    const { format, ...filter } = query;
    const file = await spanExportFile(appDeps(), access, format, filter, catalogue.declarations());
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.fileName}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
