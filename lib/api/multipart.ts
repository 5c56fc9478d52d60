import { Readable } from "node:stream";
import Busboy from "busboy";
import { ValidationError } from "../errors";

export interface MultipartFile {
  field: string;
  filename: string;
  mimeType: string;
  stream: Readable;
}

/**
 * Streams a multipart/form-data request: text fields are collected, each file part is handed to
 * `onFile` as a stream (never buffered whole), so a 2 GiB video goes straight to storage.
 */
export async function readMultipart(
  request: Request,
  onFile: (file: MultipartFile) => Promise<void>,
  limits: { maxFields?: number; maxFieldBytes?: number; maxFiles?: number } = {},
): Promise<Record<string, string>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) throw new ValidationError("Send multipart/form-data.");
  if (!request.body) throw new ValidationError("The request has no body.");
  const fields: Record<string, string> = {};
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({
        headers: { "content-type": contentType },
        limits: { fields: limits.maxFields ?? 20, fieldSize: limits.maxFieldBytes ?? 5 * 1024 * 1024, files: limits.maxFiles ?? 1 },
        defParamCharset: "utf8",
      });
    } catch {
      reject(new ValidationError("Malformed multipart body."));
      return;
    }
    busboy.on("field", (name, value, info) => {
      if (info.valueTruncated) reject(new ValidationError(`The field ${name} is too large.`));
      fields[name] = value;
    });
    busboy.on("file", (field, stream, info) => {
      const handled = onFile({ field, filename: info.filename ?? "", mimeType: info.mimeType, stream }).catch((error: unknown) => {
        stream.resume(); // drain, so busboy can finish and report
        throw error;
      });
      pending.push(handled);
      handled.catch(reject);
    });
    busboy.on("filesLimit", () => reject(new ValidationError("Too many file parts.")));
    busboy.on("fieldsLimit", () => reject(new ValidationError("Too many fields.")));
    busboy.on("error", () => reject(new ValidationError("Malformed multipart body.")));
    busboy.on("close", () => resolve());
    Readable.fromWeb(request.body as import("node:stream/web").ReadableStream).on("error", reject).pipe(busboy);
  });
  await Promise.all(pending);
  return fields;
}
