import type { Readable } from "node:stream";
import { Readable as NodeReadable } from "node:stream";

/**
 * Serves stored bytes with HTTP range support (players seek with `Range: bytes=…`).
 * Only single ranges are supported; anything else gets the whole body or 416.
 */
export async function rangeResponse(
  request: Request,
  size: number,
  open: (range?: { start: number; end: number }) => Promise<Readable>,
  headers: Record<string, string>,
): Promise<Response> {
  const common = { "accept-ranges": "bytes", "cache-control": "private, max-age=3600", ...headers };
  const header = request.headers.get("range");
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (header && match && (match[1] || match[2])) {
    let start: number;
    let end: number;
    if (match[1] === "") {
      const suffix = Number(match[2]);
      start = Math.max(0, size - suffix);
      end = size - 1;
    } else {
      start = Number(match[1]);
      end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
    }
    if (start > end || start >= size) {
      return new Response(null, { status: 416, headers: { ...common, "content-range": `bytes */${size}` } });
    }
    const body = await open({ start, end });
    return new Response(NodeReadable.toWeb(body) as ReadableStream, {
      status: 206,
      headers: {
        ...common,
        "content-range": `bytes ${start}-${end}/${size}`,
        "content-length": String(end - start + 1),
      },
    });
  }
  const body = await open();
  return new Response(NodeReadable.toWeb(body) as ReadableStream, {
    status: 200,
    headers: { ...common, "content-length": String(size) },
  });
}
