import { describe, expect, it } from "vitest";
import { jsonLines, pagedTextStream, textStream } from "./text-stream";

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("textStream and pagedTextStream", () => {
  it("asks for the next piece only when the reader pulls, skipping empty pieces", async () => {
    const asked: number[] = [];
    async function* pieces() {
      for (let i = 0; i < 4; i += 1) {
        asked.push(i);
        yield i === 2 ? "" : `piece ${i}\n`;
      }
    }
    const reader = textStream(pieces()).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("piece 0\n");
    // A ReadableStream pulls once more to fill its queue (highWaterMark 1), never the whole source.
    expect(asked.length).toBeLessThanOrEqual(2);
    let rest = "";
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      rest += new TextDecoder().decode(next.value);
    }
    expect(rest).toBe("piece 1\npiece 3\n");
  });

  it("stops reading the source when the reader cancels", async () => {
    let finished = false;
    async function* pieces() {
      try {
        for (let i = 0; ; i += 1) yield `${i}\n`;
      } finally {
        finished = true;
      }
    }
    const reader = textStream(pieces()).getReader();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });

  it("errors the stream when a later page fails, so the download is not mistaken for a whole file", async () => {
    async function* pages() {
      yield ["a"];
      throw new Error("the database went away");
    }
    const stream = await pagedTextStream(pages(), "header\n", (page) => page.join("\n") + "\n");
    await expect(readAll(stream)).rejects.toThrow(/the database went away/);
  });

  it("reads the first page before it returns, so a refusal is thrown to the route, not written into the body", async () => {
    async function* pages(allowed: boolean): AsyncGenerator<string[]> {
      if (!allowed) throw new Error("not allowed");
      yield ["a page"];
    }
    await expect(pagedTextStream(pages(false), "h\n", (page) => page.join(""))).rejects.toThrow("not allowed");
  });

  it("writes the header, then every page; a source with no page gives the header alone", async () => {
    async function* pages() {
      yield [{ a: 1 }];
      yield [{ a: 2 }, { a: 3 }];
    }
    expect(await readAll(await pagedTextStream(pages(), "", jsonLines))).toBe('{"a":1}\n{"a":2}\n{"a":3}\n');
    async function* none(): AsyncGenerator<unknown[]> {
      yield* [];
    }
    expect(await readAll(await pagedTextStream(none(), "h\n", jsonLines))).toBe("h\n");
    expect(jsonLines([])).toBe("");
  });
});
