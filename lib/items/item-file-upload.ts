import { readMultipart } from "../format/multipart";
import { PayloadTooLargeError, ValidationError } from "../errors";
import { hasNulByte, NUL_BYTE_MESSAGE } from "../validation/nul-bytes";
import { fileNounOf } from "./item-set-import";
import { MAX_ITEM_SET_FILE_BYTES, type ItemFile, type ItemSetKind } from "../task-modules/item-set-kind";

/**
 * An item set upload: the multipart part `file` (read into memory, refused past the item set file limit
 * before it is all read) and the text fields. The kind names the file in messages and gives the file name
 * an upload without one is stored under.
 */
export async function readItemFileUpload(
  request: Request,
  kind: Pick<ItemSetKind, "noun" | "defaultFileName">,
): Promise<{ file: ItemFile; fields: Record<string, string> }> {
  let file: ItemFile | null = null;
  const fields = await readMultipart(request, async (part) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ITEM_SET_FILE_BYTES)
        throw new PayloadTooLargeError(
          `A ${fileNounOf(kind)} may be at most ${MAX_ITEM_SET_FILE_BYTES / (1024 * 1024)} MiB.`,
        );
      chunks.push(chunk);
    }
    if (hasNulByte(part.filename ?? "")) throw new ValidationError(`The file name ${NUL_BYTE_MESSAGE}.`);
    if (part.field !== "file")
      throw new ValidationError(
        `Unexpected file part "${part.field}"; send the ${kind.noun} as the part named "file".`,
      );
    file = { fileName: part.filename || kind.defaultFileName, bytes: new Uint8Array(Buffer.concat(chunks)) };
  });
  const received = file as ItemFile | null;
  if (!received) throw new ValidationError(`Send the ${kind.noun} as a multipart part named "file".`);
  return { file: received, fields };
}
