/**
 * A .tar written entry by entry while it downloads (tar-stream's pack), as a web stream a route handler returns.
 * A failure part-way errors the stream, so the HTTP response is aborted rather than ending as a complete tar: the
 * failure reaches the reader through a promise of its own, since the pack's iterator may never settle once destroyed.
 */
import { pack as tarPack, type Pack } from "tar-stream";

/** Adds a file of text to the tar; resolves once the pack has taken it. */
export function addTarText(pack: Pack, name: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, type: "file" }, Buffer.from(text), (error) => (error ? reject(error) : resolve()));
  });
}

/** What the writer sees: the pack to fill and finalize, and whether the reader has gone (then it stops writing). */
export interface TarWriting {
  pack: Pack;
  readonly cancelled: boolean;
}

/**
 * Streams what `write` puts in the pack. `write` finalizes the pack when it is done; a rejection destroys the pack,
 * is told to `onFailure` (for the log) and errors the stream.
 */
export function tarDownload(
  write: (writing: TarWriting) => Promise<void>,
  onFailure: (error: Error) => void = () => {},
): ReadableStream<Uint8Array> {
  const pack = tarPack();
  const writing = { pack, cancelled: false };
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  pack.on("error", () => {});
  write(writing).catch((error: unknown) => {
    const reason = error instanceof Error ? error : new Error(String(error));
    onFailure(reason);
    fail(reason);
    pack.destroy(reason);
  });
  const chunks = pack[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const pending = chunks.next();
      pending.catch(() => {});
      const next = await Promise.race([pending, failed]);
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value));
    },
    async cancel() {
      writing.cancelled = true;
      await chunks.return?.();
    },
  });
}
