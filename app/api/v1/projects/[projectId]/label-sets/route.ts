import { withProject } from "@/lib/api/with-project";
import { readMultipart } from "@/lib/format/multipart";

import { PayloadTooLargeError, ValidationError } from "@/lib/errors";
import {
  importGenericLabels,
  importTaskLabelSet,
  importVbenchResults,
  listLabelSets,
} from "@/lib/label-sets/label-sets";
import { labelSetListAnswerSchema, MAX_LABEL_SET_BYTES } from "@/lib/label-sets/label-sets.validation";
import { isSpanImportFormatId } from "@/lib/spans/span-files/span-file-formats";
import { importSpanLabelSet, labelSetImportFields } from "@/lib/spans/span-files/span-import";
import { labelSetImportDoneSchema, labelSetImportDryRunSchema } from "@/lib/spans/span-files/span-import.types";
import { PROJECT_SPAN_TASK } from "@/lib/spans/span-types";
import { appDeps } from "@/lib/videos/app-deps";
import { ok, importAnswers } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The label sets",
    responses: [ok("`{labelSets: [...]}`.", labelSetListAnswerSchema)],
  },
  async ({ prisma, access }) => Response.json({ labelSets: await listLabelSets(prisma, access) }),
);

/**
 * multipart: `file` (the label sheet, with `format=vbench` VBench's evaluation results JSON, with `format=generic` a
 * CSV or JSONL of video, annotator, target, value, item, or with `columns` a wide one: one column per target),
 * `format`, `name`, `citation`, `match` (file_name | column), `mappingColumn`, `columns` (generic: a wide file's column
 * map as JSON, `{video, annotator?, item?, targets: {column: target}}`), with a span file format's id
 * (lib/spans/span-files/span-file-formats.ts) a file of spans, `task` (the rows' task by default),
 * `dryRun` ("true" by default: the plan and every interpreted or skipped cell, nothing written; "false" imports).
 */
export const POST = withProject(
  "videos.import",
  {
    summary: "Import a label set (owners)",
    description:
      '`dryRun` is "true" by default: the plan and every interpreted or skipped cell, nothing written. With `format=generic`, `columns` (JSON `{video, annotator?, item?, targets: {column: target}}`) reads a wide file: one column per target (a rubric criterion), categorical values by label name.',
    body: {
      kind: "multipart",
      fields: labelSetImportFields,
      files: { file: "The label sheet (.xlsx), VBench results (JSON), or generic CSV/JSONL." },
    },
    responses: importAnswers("the label set", {
      dryRun: labelSetImportDryRunSchema,
      imported: labelSetImportDoneSchema,
    }),
    errors: [413],
  },
  async ({ prisma, request, access, catalogue }) => {
    let upload: { name: string; bytes: Uint8Array } | null = null;
    const fields = await readMultipart(request, async (file) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of file.stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_LABEL_SET_BYTES)
          throw new PayloadTooLargeError(`Label-set files may be at most ${MAX_LABEL_SET_BYTES} bytes.`);
        chunks.push(chunk);
      }
      upload = { name: file.filename || "labels.xlsx", bytes: new Uint8Array(Buffer.concat(chunks)) };
    });
    const file = upload as { name: string; bytes: Uint8Array } | null;
    if (!file) throw new ValidationError('Send the label sheet as a multipart part named "file".');
    const input = labelSetImportFields(catalogue).parse(fields);
    const dryRun = input.dryRun !== "false";
    if (isSpanImportFormatId(input.format)) {
      const result = await importSpanLabelSet(
        appDeps(),
        access,
        {
          file: file.bytes,
          fileName: file.name,
          name: input.name,
          citation: input.citation,
          format: input.format,
          task: input.task ?? PROJECT_SPAN_TASK,
          dryRun,
        },
        catalogue.declarations(),
      );
      return Response.json(result, { status: result.dryRun ? 200 : 201 });
    }
    if (input.format === "generic") {
      const result = await importGenericLabels(
        prisma,
        access,
        {
          file: file.bytes,
          fileName: file.name,
          name: input.name,
          citation: input.citation,
          dryRun,
          columns: input.columns,
        },
        catalogue,
      );
      return Response.json(result, { status: result.dryRun ? 200 : 201 });
    }
    if (input.format === "vbench") {
      const result = await importVbenchResults(prisma, access, {
        file: file.bytes,
        fileName: file.name,
        name: input.name,
        citation: input.citation,
        dryRun,
      });
      return Response.json(result, { status: result.dryRun ? 200 : 201 });
    }
    const result = await importTaskLabelSet(
      prisma,
      access,
      input.format,
      {
        file: file.bytes,
        fileName: file.name,
        name: input.name,
        citation: input.citation,
        match: input.match === "column" ? { by: "column", column: input.mappingColumn! } : { by: "file_name" },
        dryRun,
      },
      catalogue,
    );
    return Response.json(result, { status: result.dryRun ? 200 : 201 });
  },
);
