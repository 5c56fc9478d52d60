import type { Readable } from "node:stream";
import Busboy from "busboy";
import { ValidationError } from "../errors";
import { hasNulByte, NUL_BYTE_MESSAGE } from "../validation/nul-bytes";
import { requestBodyStream } from "./request-body-stream";

export interface MultipartFile {
  field: string;
  filename: string;
  mimeType: string;
  stream: Readable;
}

/**
 * Streams a multipart/form-data request: text fields are collected, each file part is handed to
 * `onFile` as a stream (never buffered whole), so a 2 GiB video goes straight to storage.
 *
 * It settles only after every `onFile` has settled, also when the request is refused or dropped
 * half-way: a part still being read is destroyed with the reason (so a storage write stops and
 * removes its partial file), and the caller's cleanup sees everything its handlers stored.
 */
export async function readMultipart(
  request: Request,
  onFile: (file: MultipartFile) => Promise<void>,
  limits: { maxFields?: number; maxFieldBytes?: number; maxFiles?: number } = {},
): Promise<Record<string, string>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data"))
    throw new ValidationError("Send multipart/form-data.");
  const body = requestBodyStream(request);
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { "content-type": contentType },
      limits: {
        fields: limits.maxFields ?? 20,
        fieldSize: limits.maxFieldBytes ?? 5 * 1024 * 1024,
        files: limits.maxFiles ?? 1,
      },
      defParamCharset: "utf8",
    });
  } catch {
    body.destroy();
    throw new ValidationError("Malformed multipart body.");
  }

  const fields: Record<string, string> = {};
  const handlers: Promise<void>[] = [];
  const openParts = new Set<Readable>();
  let failure: { error: unknown } | null = null;
  let parsed!: () => void;
  const done = new Promise<void>((resolve) => (parsed = resolve));
  const fail = (error: unknown) => {
    if (failure) return;
    failure = { error };
    body.unpipe(busboy);
    body.destroy(); // reads the rest of the body and drops it
    const reason = error instanceof Error ? error : new Error(String(error));
    for (const part of openParts) part.destroy(reason);
    parsed();
  };

  busboy.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new ValidationError(`The field ${name} is too large.`));
    else if (hasNulByte(name) || hasNulByte(value))
      fail(new ValidationError(`${JSON.stringify(name)}: ${NUL_BYTE_MESSAGE}.`));
    else fields[name] = value;
  });
  busboy.on("file", (field, stream, info) => {
    if (failure) {
      stream.resume();
      return;
    }
    if (hasNulByte(field) || hasNulByte(info.filename ?? "")) {
      stream.resume();
      fail(new ValidationError(`The file name of the part ${JSON.stringify(field)}: ${NUL_BYTE_MESSAGE}.`));
      return;
    }
    openParts.add(stream);
    stream.once("close", () => openParts.delete(stream));
    handlers.push(
      onFile({ field, filename: info.filename ?? "", mimeType: info.mimeType, stream }).catch((error: unknown) => {
        stream.resume(); // drain, so busboy can go on to the end
        fail(error);
      }),
    );
  });
  busboy.on("filesLimit", () => fail(new ValidationError(`Too many file parts (at most ${limits.maxFiles ?? 1}).`)));
  busboy.on("fieldsLimit", () => fail(new ValidationError("Too many fields.")));
  busboy.on("error", () => fail(new ValidationError("Malformed multipart body.")));
  busboy.on("close", () => parsed());
  body.on("error", fail);
  body.pipe(busboy);

  await done;
  await Promise.all(handlers); // each catches its own error into `failure`
  const refused = failure as { error: unknown } | null;
  if (refused) throw refused.error;
  return fields;
}
