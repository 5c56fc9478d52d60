import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { listTar, readTarEntry, TarWriter } from "./tar";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-tar-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function read(file: string, entry: Parameters<typeof readTarEntry>[1]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readTarEntry(file, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("the backup's tar", () => {
  it("reads back what it wrote: long and non-ASCII names, empty files, streams, odd sizes", async () => {
    const file = path.join(dir, "a.tar");
    const longName = `storage/objects/projects/${"p".repeat(40)}/frames/${"f".repeat(60)}/00001.jpg`;
    const streamed = Buffer.alloc(70_000, 7);
    const tar = await TarWriter.create(file);
    await tar.add("manifest.json", Buffer.from("{}\n"));
    await tar.add(longName, Buffer.from("frame bytes"));
    await tar.add("storage/objects/prompts/Überraschung – 1.txt", Buffer.from("ü"));
    await tar.add("empty", Buffer.alloc(0));
    await tar.add("streamed.bin", Readable.from([streamed.subarray(0, 1000), streamed.subarray(1000)]), {
      size: streamed.length,
    });
    await tar.close();
    expect(fs.statSync(file).size % 512).toBe(0);

    const entries = await listTar(file);
    expect(entries.map((e) => e.name)).toEqual([
      "manifest.json",
      longName,
      "storage/objects/prompts/Überraschung – 1.txt",
      "empty",
      "streamed.bin",
    ]);
    expect((await read(file, entries[1]!)).toString()).toBe("frame bytes");
    expect((await read(file, entries[2]!)).toString()).toBe("ü");
    expect(await read(file, entries[3]!)).toEqual(Buffer.alloc(0));
    expect((await read(file, entries[4]!)).equals(streamed)).toBe(true);
  });

  it("refuses a stream whose length differs from the size given, and a file that is not a tar", async () => {
    const tar = await TarWriter.create(path.join(dir, "b.tar"));
    await expect(tar.add("short", Readable.from([Buffer.from("abc")]), { size: 5 })).rejects.toThrow(
      /has 3 bytes, expected 5/,
    );
    await tar.abort();
    const notTar = path.join(dir, "not.tar");
    fs.writeFileSync(notTar, Buffer.alloc(1024, 65));
    await expect(listTar(notTar)).rejects.toThrow(/Not a tar archive/);
  });
});
