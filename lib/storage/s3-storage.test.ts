import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3rver, type RunningS3rver } from "../../testkit/testing/s3rver";
import { coverage, createS3Client, S3Storage } from "./s3-storage";
import { checkStorage } from "./storage";

let s3: RunningS3rver;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
function storageWith(options: { copyLimitBytes?: number } = {}) {
  const config = s3.config();
  return {
    storage: new S3Storage(createS3Client(config), config.bucket, config.prefix, options),
    prefix: config.prefix,
    client: createS3Client(config),
  };
}

describe("S3Storage specifics", () => {
  it("keeps everything under its prefix: objects/<key> and staging/<uploadId>/…", async () => {
    const { storage, prefix, client } = storageWith();
    await storage.put("projects/p/videos/v.mp4", Buffer.from("v"));
    await storage.appendToStaging("u1", 0, Readable.from([Buffer.from("abc")]), 10);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
    const keys = (listed.Contents ?? []).map((object) => object.Key!.slice(prefix.length)).sort();
    expect(keys[0]).toBe("objects/projects/p/videos/v.mp4");
    expect(keys[1]).toMatch(/^staging\/u1\/0{16}\.[0-9a-f-]{36}$/);
    expect(keys).toHaveLength(2);
  });

  it("records the SHA-256 of objects whose hash is known when they are stored", async () => {
    const { storage } = storageWith();
    const bytes = randomBytes(1000);
    await storage.put("a", bytes);
    expect(await storage.head("a")).toEqual({ size: 1000, sha256: sha256(bytes) });
    await storage.put("b", Readable.from([bytes]), { expectedSha256: sha256(bytes) });
    expect((await storage.head("b"))?.sha256).toBe(sha256(bytes));
    await storage.appendToStaging("u2", 0, Readable.from([bytes]), bytes.length);
    await storage.promoteStaging("u2", "c", { expectedSha256: sha256(bytes), expectedSize: bytes.length });
    expect((await storage.head("c"))?.sha256).toBe(sha256(bytes));
    // A stream without an expected hash is only hashed at its end, after the upload began.
    await storage.put("d", Readable.from([bytes]));
    expect(await storage.head("d")).toEqual({ size: 1000, sha256: null });
    expect(await storage.head("missing")).toBeNull();
  });

  it("moves an object over the CopyObject limit by streaming it, checked against its recorded hash", async () => {
    const { storage } = storageWith({ copyLimitBytes: 1000 });
    const bytes = randomBytes(9 * 1024 * 1024);
    await storage.put("big/from", bytes);
    await storage.move("big/from", "big/to");
    expect(await storage.stat("big/from")).toBeNull();
    expect(await storage.head("big/to")).toEqual({ size: bytes.length, sha256: sha256(bytes) });
    expect((await readAll(await storage.get("big/to"))).equals(bytes)).toBe(true);
    await expect(storage.move("big/none", "big/to")).rejects.toThrow("No object at big/none.");
  });

  it("withLocalFile removes its temporary file after use, also when the tool throws", async () => {
    const { storage } = storageWith();
    await storage.put("f", Buffer.from("file bytes"));
    let seen = "";
    await storage.withLocalFile("f", async (file) => {
      seen = file;
      expect(fs.readFileSync(file, "utf8")).toBe("file bytes");
    });
    expect(fs.existsSync(seen)).toBe(false);
    await expect(
      storage.withLocalFile("f", async (file) => {
        seen = file;
        throw new Error("probe failed");
      }),
    ).rejects.toThrow("probe failed");
    expect(fs.existsSync(seen)).toBe(false);
  });

  it("two appends racing at the same offset (a lost lease) both land; the staged bytes are read once, up to the furthest", async () => {
    const { storage } = storageWith();
    const bytes = randomBytes(6000);
    // The slow one starts first and is still writing when the second checks the offset.
    const slow = new Readable({ read() {} });
    const first = storage.appendToStaging("race", 0, slow, bytes.length);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await storage.appendToStaging("race", 0, Readable.from([bytes.subarray(0, 1000)]), bytes.length)).toBe(1000);
    slow.push(bytes.subarray(0, 2500));
    slow.push(null);
    expect(await first).toBe(2500);
    expect(await storage.appendToStaging("race", 2500, Readable.from([bytes.subarray(2500)]), bytes.length)).toBe(6000);
    const promoted = await storage.promoteStaging("race", "raced", {
      expectedSha256: sha256(bytes),
      expectedSize: bytes.length,
    });
    expect(promoted.sha256).toBe(sha256(bytes));
    expect((await readAll(await storage.get("raced"))).equals(bytes)).toBe(true);
  });
});

describe("coverage of staged parts", () => {
  const part = (offset: number, size: number) => ({
    s3Key: `k${offset}-${size}`,
    offset,
    size,
    lastModified: new Date(),
  });

  it("follows parts end to end, reads overlaps once, and stops at a gap", () => {
    expect(coverage([part(0, 10), part(10, 5)])).toEqual({
      size: 15,
      pieces: [
        { s3Key: "k0-10", start: 0, end: 9 },
        { s3Key: "k10-5", start: 0, end: 4 },
      ],
    });
    expect(coverage([part(0, 4), part(0, 10), part(8, 6)])).toEqual({
      size: 14,
      pieces: [
        { s3Key: "k0-10", start: 0, end: 9 },
        { s3Key: "k8-6", start: 2, end: 5 },
      ],
    });
    expect(coverage([part(0, 10), part(12, 5)]).size).toBe(10);
    expect(coverage([part(5, 10)]).size).toBe(0);
    expect(coverage([part(0, 0), part(0, 3)]).size).toBe(3);
    expect(coverage([]).size).toBe(0);
  });
});

describe("checkStorage (start-up)", () => {
  it("passes for a reachable bucket and names what to check otherwise", async () => {
    expect(await checkStorage(s3.config("app/"))).toBe(`s3://${s3.bucket}/app/ at ${s3.endpoint}, path-style`);
    await expect(checkStorage({ ...s3.config(), bucket: "no-such-bucket" })).rejects.toThrow(
      /^Storage: cannot list s3:\/\/no-such-bucket\/.* \(NoSuchBucket: .*\)\. Check STORAGE_URL, S3_ENDPOINT, S3_REGION, the credentials, and that the bucket exists\.$/,
    );
    await expect(
      checkStorage({ ...s3.config(), credentials: { accessKeyId: "NOT-A-KEY", secretAccessKey: "S3RVER" } }),
    ).rejects.toThrow(/InvalidAccessKeyId/);
    await expect(checkStorage({ kind: "local", dir: "/srv/x" })).resolves.toBe("local directory /srv/x");
  });
});
