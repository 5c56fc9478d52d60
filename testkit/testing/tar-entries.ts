import { Readable } from "node:stream";
import { extract } from "tar-stream";

/** Every entry of a streamed .tar download by name; rejects when the download fails part-way. */
export async function tarEntries(stream: ReadableStream<Uint8Array>): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on("entry", (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on("data", (c) => chunks.push(c as Buffer));
      body.on("end", () => {
        entries.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    reader.on("finish", resolve);
    reader.on("error", reject);
  });
  const source = Readable.fromWeb(stream as Parameters<typeof Readable.fromWeb>[0]);
  // `pipe` does not pass a source's error on: a failed download must fail the read.
  const failed = new Promise<never>((_, reject) => source.on("error", reject));
  source.pipe(reader);
  await Promise.race([done, failed]);
  return entries;
}
