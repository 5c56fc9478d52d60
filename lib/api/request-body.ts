import { isAppError, PayloadTooLargeError, RequestAbortedError } from "../errors";

const MIB = 1024 * 1024;

/** The most a JSON body of an /api/v1 route may hold: a run's 100,000 video ids take about 3 MiB. */
export const JSON_BODY_LIMIT = 4 * MIB;

/** The most a body of better-auth's routes (/api/auth/*) may hold: a sign-in or a password change is a few hundred bytes. */
export const AUTH_BODY_LIMIT = 1 * MIB;

/** A limit in words: "4 MiB", "512 KiB", "100 bytes". */
function bytesInWords(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function bodyTooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body is larger than the limit of ${bytesInWords(limit)}.`, {
    limitBytes: limit,
  });
}

/**
 * The whole request body, refused with a 413 naming the limit once it is larger than `limit` bytes: at once when its
 * `Content-Length` says so, else as soon as the bytes counted while it streams pass the limit (a chunked body that
 * never ends included), so no more than `limit` bytes are ever held. A refused body is cancelled, not read on: its
 * reader has no read waiting then, so undici's stream closes cleanly (lib/format/request-body-stream.ts's hazard is a cancel while
 * a read waits), and the server answers the 413 and closes the connection. The answer does not wait for the cancel.
 */
export async function readBoundedBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length")?.trim();
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) {
    void request.body?.cancel().catch(() => undefined);
    throw bodyTooLarge(limit);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        void reader.cancel().catch(() => undefined);
        throw bodyTooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new RequestAbortedError();
  }
  return Buffer.concat(chunks, total);
}

/** The request body as UTF-8 text, bounded as readBoundedBody bounds it. */
export async function readBoundedText(request: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBoundedBody(request, limit));
}
