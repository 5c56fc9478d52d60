import { describe, expect, it } from "vitest";
import { tarEntries } from "../../testkit/testing/tar-entries";
import { addTarText, tarDownload } from "./tar-download";

describe("tarDownload", () => {
  it("streams the entries the writer adds, in order, and ends once it finalizes", async () => {
    const stream = tarDownload(async ({ pack }) => {
      await addTarText(pack, "data/a.jsonl", '{"a":1}\n');
      await addTarText(pack, "README.md", "# card");
      pack.finalize();
    });
    const entries = await tarEntries(stream);
    expect([...entries.keys()]).toEqual(["data/a.jsonl", "README.md"]);
    expect(entries.get("README.md")!.toString()).toBe("# card");
  });

  it("errors the stream when the writer fails part-way, and tells onFailure, so no complete tar is delivered", async () => {
    const told: string[] = [];
    const stream = tarDownload(
      async ({ pack }) => {
        await addTarText(pack, "data/a.jsonl", "x\n");
        throw new Error("the database went away");
      },
      (error) => told.push(error.message),
    );
    await expect(tarEntries(stream)).rejects.toThrow("the database went away");
    expect(told).toEqual(["the database went away"]);
  });

  it("tells the writer the reader has gone, so it stops writing", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: boolean[] = [];
    const stream = tarDownload(async (writing) => {
      await addTarText(writing.pack, "first", "1");
      await gate;
      seen.push(writing.cancelled);
    });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    release();
    await gate;
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([true]);
  });
});
