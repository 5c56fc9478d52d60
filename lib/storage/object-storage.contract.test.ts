import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3rver, type RunningS3rver } from "../../testkit/testing/s3rver";
import { LocalStorage } from "./local-storage";
import {
  StorageIntegrityError,
  StorageNotFoundError,
  StorageOffsetError,
  StorageTooLargeError,
  type ObjectStorage,
} from "./object-storage";
import { storageFor } from "./storage";

let s3: RunningS3rver;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
});

const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A body delivered in pieces, as a request body arrives. */
function streamOf(bytes: Buffer, pieceBytes = 64 * 1024): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += pieceBytes) pieces.push(bytes.subarray(at, at + pieceBytes));
  return Readable.from(pieces);
}

/** A body that delivers `bytes` and then breaks off, as a dropped connection does. */
function brokenStream(bytes: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(bytes);
      // Once the bytes were taken in, the connection drops.
      setTimeout(() => this.destroy(new Error("connection reset")), 100);
    },
  });
}

// Every behaviour callers rely on, run against each backend: a local directory and a real
// S3-compatible server (s3rver on loopback).
describe.each([
  ["local directory", () => new LocalStorage(fs.mkdtempSync(path.join(os.tmpdir(), "framejury-contract-")))],
  ["S3-compatible (s3rver)", () => storageFor(s3.config())],
] as const)("ObjectStorage contract: %s", (_name, makeStorage) => {
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = makeStorage();
  });

  it("stores a streamed body with its SHA-256 and size, serves it whole and by inclusive byte range, and replaces it on a second put", async () => {
    const bytes = randomBytes(300 * 1024);
    const stored = await storage.put("projects/p/videos/a.mp4", streamOf(bytes));
    expect(stored).toEqual({ key: "projects/p/videos/a.mp4", sha256: sha256(bytes), size: bytes.length });
    expect(await storage.stat("projects/p/videos/a.mp4")).toEqual({ size: bytes.length });
    expect((await readAll(await storage.get("projects/p/videos/a.mp4"))).equals(bytes)).toBe(true);
    expect((await storage.getBytes("projects/p/videos/a.mp4")).equals(bytes)).toBe(true);
    expect(
      (await readAll(await storage.get("projects/p/videos/a.mp4", { start: 1000, end: 1999 }))).equals(
        bytes.subarray(1000, 2000),
      ),
    ).toBe(true);
    expect(
      (
        await readAll(await storage.get("projects/p/videos/a.mp4", { start: bytes.length - 10, end: bytes.length - 1 }))
      ).equals(bytes.subarray(-10)),
    ).toBe(true);

    const replacement = Buffer.from("a shorter body");
    expect(await storage.put("projects/p/videos/a.mp4", replacement)).toEqual({
      key: "projects/p/videos/a.mp4",
      sha256: sha256(replacement),
      size: replacement.length,
    });
    expect((await readAll(await storage.get("projects/p/videos/a.mp4"))).toString()).toBe("a shorter body");
  });

  it("stores bytes given as a Uint8Array, and an empty body", async () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    expect(await storage.put("frames/f/00001.jpg", bytes)).toEqual({
      key: "frames/f/00001.jpg",
      sha256: sha256(Buffer.from(bytes)),
      size: 5,
    });
    expect([...(await readAll(await storage.get("frames/f/00001.jpg")))]).toEqual([1, 2, 3, 4, 5]);
    expect(await storage.put("empty/e", Readable.from([]))).toMatchObject({ size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect(await storage.stat("empty/e")).toEqual({ size: 0 });
  });

  it("a body that does not hash to the expected SHA-256 stores nothing and leaves the previous object as it was", async () => {
    const previous = Buffer.from("the object readers see");
    await storage.put("integrity/a", previous);
    // Larger than a multipart part, so parts are sent before the mismatch is known.
    const body = randomBytes(9 * MiB);
    await expect(
      storage.put("integrity/a", streamOf(body, MiB), { expectedSha256: "0".repeat(64) }),
    ).rejects.toBeInstanceOf(StorageIntegrityError);
    expect((await readAll(await storage.get("integrity/a"))).equals(previous)).toBe(true);
    await expect(
      storage.put("integrity/b", new Uint8Array(body.subarray(0, 100)), { expectedSha256: "1".repeat(64) }),
    ).rejects.toBeInstanceOf(StorageIntegrityError);
    expect(await storage.stat("integrity/b")).toBeNull();
    expect(await storage.put("integrity/c", streamOf(body, MiB), { expectedSha256: sha256(body) })).toMatchObject({
      size: body.length,
    });
  });

  it("a body over maxBytes stores nothing and says it is too large", async () => {
    const body = randomBytes(9 * MiB);
    await expect(storage.put("too-large/a", streamOf(body, MiB), { maxBytes: 9 * MiB - 1 })).rejects.toBeInstanceOf(
      StorageTooLargeError,
    );
    expect(await storage.stat("too-large/a")).toBeNull();
    await expect(storage.put("too-large/b", new Uint8Array(10), { maxBytes: 9 })).rejects.toBeInstanceOf(
      StorageTooLargeError,
    );
    expect(await storage.stat("too-large/b")).toBeNull();
    expect(await storage.put("too-large/c", streamOf(body, MiB), { maxBytes: 9 * MiB })).toMatchObject({
      size: 9 * MiB,
    });
  });

  it("a body that breaks off stores nothing and rejects with the body's error", async () => {
    await expect(storage.put("broken/a", brokenStream(randomBytes(1000)))).rejects.toThrow("connection reset");
    expect(await storage.stat("broken/a")).toBeNull();
  });

  it("a missing object: get rejects with StorageNotFoundError, stat is null, delete is a no-op", async () => {
    await expect(storage.get("missing/a")).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.getBytes("missing/a")).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await storage.stat("missing/a")).toBeNull();
    await storage.delete("missing/a");
  });

  it("deletes, and moves an object to another key, replacing what is there", async () => {
    await storage.put("move/from", Buffer.from("moved bytes"));
    await storage.put("move/to", Buffer.from("old"));
    await storage.move("move/from", "move/to");
    expect(await storage.stat("move/from")).toBeNull();
    expect((await readAll(await storage.get("move/to"))).toString()).toBe("moved bytes");
    await storage.delete("move/to");
    expect(await storage.stat("move/to")).toBeNull();
  });

  it("refuses keys that could escape the store", async () => {
    for (const key of ["../x", "a//b", "a/./b", "/abs", "a b"]) {
      await expect(storage.put(key, Buffer.from("x"))).rejects.toThrow(/unsafe storage key/);
      await expect(storage.getBytes(key)).rejects.toThrow(/unsafe storage key/);
    }
    await expect(storage.appendToStaging("../x", 0, streamOf(Buffer.from("x")), 10)).rejects.toThrow(
      /unsafe upload id/,
    );
  });

  it("resumable upload: appends at the reported offset, refuses a wrong offset with the actual one, and promotes the whole after checking size and SHA-256", async () => {
    const bytes = randomBytes(12 * MiB + 123);
    const uploadId = `up${randomBytes(4).toString("hex")}`;
    expect(await storage.stagingSize(uploadId)).toBe(0);
    expect(await storage.appendToStaging(uploadId, 0, streamOf(bytes.subarray(0, 5 * MiB)), bytes.length)).toBe(
      5 * MiB,
    );
    const wrong = await storage
      .appendToStaging(uploadId, 1234, streamOf(bytes.subarray(1234, 2000)), bytes.length)
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(StorageOffsetError);
    expect((wrong as StorageOffsetError).actual).toBe(5 * MiB);
    expect(
      await storage.appendToStaging(uploadId, 5 * MiB, streamOf(bytes.subarray(5 * MiB, 10 * MiB)), bytes.length),
    ).toBe(10 * MiB);
    expect(await storage.stagingSize(uploadId)).toBe(10 * MiB);

    // Short: the staged bytes stay, so the client can send the rest.
    const short = await storage
      .promoteStaging(uploadId, "incoming/short", { expectedSha256: sha256(bytes), expectedSize: bytes.length })
      .catch((error: unknown) => error);
    expect(short).toBeInstanceOf(StorageIntegrityError);
    expect((short as Error).message).toBe(`received ${10 * MiB} of ${bytes.length} bytes`);
    expect(await storage.stat("incoming/short")).toBeNull();

    expect(await storage.appendToStaging(uploadId, 10 * MiB, streamOf(bytes.subarray(10 * MiB)), bytes.length)).toBe(
      bytes.length,
    );
    const promoted = await storage.promoteStaging(uploadId, "incoming/whole", {
      expectedSha256: sha256(bytes),
      expectedSize: bytes.length,
    });
    expect(promoted).toEqual({ key: "incoming/whole", sha256: sha256(bytes), size: bytes.length });
    expect((await readAll(await storage.get("incoming/whole"))).equals(bytes)).toBe(true);
    expect(await storage.stagingSize(uploadId)).toBe(0);
  });

  it("promoting bytes that do not hash to the client's SHA-256 stores nothing and says 'mismatch'", async () => {
    const uploadId = `up${randomBytes(4).toString("hex")}`;
    const bytes = randomBytes(2000);
    await storage.appendToStaging(uploadId, 0, streamOf(bytes), bytes.length);
    const error = await storage
      .promoteStaging(uploadId, "incoming/bad", { expectedSha256: "f".repeat(64), expectedSize: bytes.length })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageIntegrityError);
    expect((error as Error).message).toBe(
      `SHA-256 mismatch: the client said ${"f".repeat(64)}, the bytes that arrived hash to ${sha256(bytes)}`,
    );
    expect(await storage.stat("incoming/bad")).toBeNull();
    await storage.discardStaging(uploadId);
    expect(await storage.stagingSize(uploadId)).toBe(0);
  });

  it("an append over the declared size keeps nothing of that chunk", async () => {
    const uploadId = `up${randomBytes(4).toString("hex")}`;
    await storage.appendToStaging(uploadId, 0, streamOf(Buffer.alloc(600, 1)), 1000);
    await expect(storage.appendToStaging(uploadId, 600, streamOf(Buffer.alloc(500, 2)), 1000)).rejects.toBeInstanceOf(
      StorageTooLargeError,
    );
    expect(await storage.stagingSize(uploadId)).toBe(600);
    await expect(
      storage.appendToStaging(uploadId, 600, streamOf(Buffer.alloc(9 * MiB, 2), MiB), 9 * MiB + 600),
    ).resolves.toBe(9 * MiB + 600);
  });

  it("an append whose body breaks off keeps the bytes that arrived, and the upload resumes from there", async () => {
    const uploadId = `up${randomBytes(4).toString("hex")}`;
    const bytes = randomBytes(5000);
    await expect(
      storage.appendToStaging(uploadId, 0, brokenStream(bytes.subarray(0, 1500)), bytes.length),
    ).rejects.toThrow("connection reset");
    expect(await storage.stagingSize(uploadId)).toBe(1500);
    expect(await storage.appendToStaging(uploadId, 1500, streamOf(bytes.subarray(1500)), bytes.length)).toBe(
      bytes.length,
    );
    const promoted = await storage.promoteStaging(uploadId, "incoming/resumed", {
      expectedSha256: sha256(bytes),
      expectedSize: bytes.length,
    });
    expect(promoted.sha256).toBe(sha256(bytes));
    expect((await readAll(await storage.get("incoming/resumed"))).equals(bytes)).toBe(true);
  });

  it("sweeps incoming objects and staged uploads last changed before the cut-off, except those of kept uploads", async () => {
    const kept = `keep${randomBytes(4).toString("hex")}`;
    const gone = `gone${randomBytes(4).toString("hex")}`;
    await storage.put("incoming/0b7e7a52-7f3a-4c1e-9a59-1f0c2c1d2e3f", Buffer.from("left by a crashed request"));
    await storage.put(`incoming/${kept}`, Buffer.from("an open upload being completed"));
    await storage.appendToStaging(kept, 0, streamOf(Buffer.from("still resumable")), 100);
    await storage.appendToStaging(gone, 0, streamOf(Buffer.from("abandoned")), 100);
    await storage.put("projects/p/videos/kept.mp4", Buffer.from("a video"));

    // Nothing is older than an hour ago.
    expect(
      await storage.sweepStale({ olderThan: new Date(Date.now() - 3600_000), keepUploadIds: new Set([kept]) }),
    ).toEqual([]);
    // Everything is older than a minute from now (object stores keep their own modification times).
    const removed = await storage.sweepStale({
      olderThan: new Date(Date.now() + 60_000),
      keepUploadIds: new Set([kept]),
    });
    expect(
      removed.filter((key) => key.includes(kept) || key.includes(gone) || key.includes("0b7e7a52")).sort(),
    ).toEqual(["incoming/0b7e7a52-7f3a-4c1e-9a59-1f0c2c1d2e3f", `staging/${gone}`].sort());
    expect(await storage.stat("incoming/0b7e7a52-7f3a-4c1e-9a59-1f0c2c1d2e3f")).toBeNull();
    expect(await storage.stagingSize(gone)).toBe(0);
    expect(await storage.stagingSize(kept)).toBe(15);
    expect(await storage.stat(`incoming/${kept}`)).not.toBeNull();
    expect(await storage.stat("projects/p/videos/kept.mp4")).not.toBeNull();
  });

  it("withLocalFile hands a file with the object's bytes to tools that need a path", async () => {
    const bytes = randomBytes(4096);
    await storage.put("local-file/a", bytes);
    const seen = await storage.withLocalFile("local-file/a", async (file) => fs.readFileSync(file));
    expect(seen.equals(bytes)).toBe(true);
  });
});
