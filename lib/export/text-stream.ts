import { useExportHeapFlags } from "../config/web-process-flags";

/**
 * A download's body made as it is read: `chunks` is asked for its next piece only when the reader pulls, so an
 * export of any length holds one piece in memory (one page of rows) whatever process serves it; it sets the web
 * process's heap flag on that process first (useExportHeapFlags), so the pages it let go are collected soon.
 * A failure part-way errors the stream: the client sees a broken transfer, never a file that looks complete.
 */
export function textStream(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  useExportHeapFlags();
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A pull that enqueues nothing is not called again, so empty pieces are skipped here.
      for (;;) {
        const next = await iterator.next();
        if (next.done) {
          controller.close();
          return;
        }
        if (next.value) {
          controller.enqueue(encoder.encode(next.value));
          return;
        }
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/**
 * An export written page by page: the first page is read now, so a refusal or a bad filter is the response's status
 * (403, 404, 400) rather than a download broken after its headers; the others as the stream is read.
 */
export async function pagedTextStream<Page>(
  pages: AsyncGenerator<Page>,
  header: string,
  text: (page: Page) => string,
): Promise<ReadableStream<Uint8Array>> {
  const first = await pages.next();
  async function* chunks() {
    yield header;
    if (first.done) return;
    yield text(first.value);
    for await (const page of pages) yield text(page);
  }
  return textStream(chunks());
}

/**
 * The pages of an export of `total` rows, each read by `read` (`skip`, `take`) only when the stream asks for it; one
 * page (empty) when there is no row, so the export still has its header and its run.
 */
export async function* rowPages<Page>(
  total: number,
  pageSize: number,
  read: (page: { skip: number; take: number }) => Promise<Page>,
): AsyncGenerator<Page> {
  for (let skip = 0; skip === 0 || skip < total; skip += pageSize) yield await read({ skip, take: pageSize });
}

/** JSON Lines: one object per line, each line ended. */
export const jsonLines = (rows: readonly unknown[]) => rows.map((row) => `${JSON.stringify(row)}\n`).join("");

/** Rows an export writes a page at a time: how many a page reads from the database. */
export const EXPORT_PAGE_ROWS = 1000;
