/** A downloadable export body (CSV or JSONL), never cached or sniffed. */
export function attachmentResponse(body: string, format: "csv" | "jsonl", baseName: string): Response {
  return new Response(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${baseName}.${format}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
