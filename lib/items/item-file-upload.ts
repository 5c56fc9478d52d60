import { readMultipart } from "../api/multipart";
import { MAX_CAPTION_SET_FILE_BYTES } from "../tasks/captions/caption-sets";
import { PayloadTooLargeError, ValidationError } from "../errors";
import { hasNulByte, NUL_BYTE_MESSAGE } from "../validation/nul-bytes";
import type { ItemFile } from "./item-sets";

/**
 * A caption set (or question set) upload: the multipart part `file` (read into memory, refused past the set
 * file limit before it is all read) and the text fields. `what` names the set in messages.
 */
export async function readItemFileUpload(request: Request, what = "caption set"): Promise<{ file: ItemFile; fields: Record<string, string> }> {
  let file: ItemFile | null = null;
  const fields = await readMultipart(request, async (part) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_CAPTION_SET_FILE_BYTES) throw new PayloadTooLargeError(`A ${what} file may be at most ${MAX_CAPTION_SET_FILE_BYTES / (1024 * 1024)} MiB.`);
      chunks.push(chunk);
    }
    if (hasNulByte(part.filename ?? "")) throw new ValidationError(`The file name ${NUL_BYTE_MESSAGE}.`);
    if (part.field !== "file") throw new ValidationError(`Unexpected file part "${part.field}"; send the ${what} as the part named "file".`);
    file = { fileName: part.filename || (what === "caption set" ? "captions.jsonl" : "questions.jsonl"), bytes: new Uint8Array(Buffer.concat(chunks)) };
  });
  const received = file as ItemFile | null;
  if (!received) throw new ValidationError(`Send the ${what} as a multipart part named "file".`);
  return { file: received, fields };
}
