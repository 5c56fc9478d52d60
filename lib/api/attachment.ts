const ATTACHMENT_TYPES = {
  csv: { contentType: "text/csv; charset=utf-8", extension: "csv" },
  jsonl: { contentType: "application/x-ndjson; charset=utf-8", extension: "jsonl" },
  latex: { contentType: "application/x-latex; charset=utf-8", extension: "tex" },
} as const;

/** A downloadable export body (CSV, JSONL or LaTeX; text, or a stream of it), never cached or sniffed. */
export function attachmentResponse(
  body: string | ReadableStream<Uint8Array>,
  format: keyof typeof ATTACHMENT_TYPES,
  baseName: string,
): Response {
  const { contentType, extension } = ATTACHMENT_TYPES[format];
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${baseName}.${extension}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** A downloadable .tar (a dataset or a task folder), streamed as it is written, never cached or sniffed. */
export function tarAttachmentResponse(stream: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(stream, {
    headers: {
      "content-type": "application/x-tar",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
