import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3rver, type RunningS3rver } from "../../testkit/testing/s3rver";
import { LocalStorage } from "./local-storage";
import { migrateLocalToS3 } from "./migrate-local-to-s3";
import { createS3Client, S3Storage } from "./s3-storage";

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

/** A local store as the app leaves it: videos and frames, plus leftovers that must not be copied. */
async function localStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-migrate-"));
  const local = new LocalStorage(dir);
  const objects = new Map<string, Buffer>();
  const add = async (key: string, bytes: Buffer) => {
    await local.put(key, bytes);
    objects.set(key, bytes);
  };
  await add("projects/p1/videos/aaa.mp4", randomBytes(9 * 1024 * 1024));
  await add("projects/p1/videos/bbb.webm", randomBytes(200_000));
  for (let i = 0; i < 4; i++)
    await add(`projects/p1/frames/set1/${String(i).padStart(5, "0")}.jpg`, randomBytes(3000 + i));
  await local.put("incoming/0b7e7a52-7f3a-4c1e-9a59-1f0c2c1d2e3f", Buffer.from("an upload in flight"));
  fs.writeFileSync(
    path.join(dir, "objects/projects/p1/videos/ccc.mp4.9f1c2b3a-1111-2222-3333-444455556666.part"),
    "a partial write",
  );
  await local.appendToStaging("upload1", 0, Readable.from([Buffer.from("staged")]), 100);
  return { dir, objects };
}

async function keysIn(target: S3Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of target.listKeys()) keys.push(object.key);
  return keys.sort();
}

function s3Store() {
  const config = s3.config();
  return new S3Storage(createS3Client(config), config.bucket, config.prefix);
}

describe("migrateLocalToS3", () => {
  it("copies every stored object, verified; an interrupted run resumes and skips what is already there", async () => {
    const { dir, objects } = await localStore();
    const target = s3Store();
    const lines: string[] = [];
    const stop = new AbortController();
    let seen = 0;
    const first = await migrateLocalToS3({
      sourceDir: dir,
      target,
      log: (line) => lines.push(line),
      signal: stop.signal,
      concurrency: 1,
      onObject: () => {
        if (++seen === 2) stop.abort();
      },
    });
    expect(first).toMatchObject({ objects: 6, copied: 2, skipped: 0, failed: [], interrupted: true });
    expect(lines[0]).toBe(`6 objects (9.2 MiB) in ${path.join(dir, "objects")}`);
    expect(lines.at(-1)).toMatch(
      /^interrupted: 2\/6 objects, .*\(copied 2, already there 0, failed 0\); .* copied and verified by SHA-256\. Run it again to continue/,
    );
    const copiedFirst = await keysIn(target);
    expect(copiedFirst).toHaveLength(2);

    // One object of the first run is damaged in the bucket meanwhile (same size, other bytes): copied again.
    const damagedKey = copiedFirst[0]!;
    await target.put(damagedKey, Readable.from([randomBytes(objects.get(damagedKey)!.length)]));

    lines.length = 0;
    const second = await migrateLocalToS3({
      sourceDir: dir,
      target,
      log: (line) => lines.push(line),
      progressEveryMs: 0,
    });
    expect(second).toMatchObject({ objects: 6, copied: 5, skipped: 1, failed: [], interrupted: false });
    expect(lines.at(-1)).toMatch(/^done: 6\/6 objects, 9\.2 MiB of 9\.2 MiB \(copied 5, already there 1, failed 0\)/);
    expect(lines.some((line) => /^\d\/6 objects/.test(line))).toBe(true);

    const inBucket = await keysIn(target);
    expect(inBucket).toEqual([...objects.keys()].sort());
    for (const [key, bytes] of objects) {
      expect(sha256(await readAll(await target.get(key)))).toBe(sha256(bytes));
      expect((await target.head(key))?.sha256).toBe(sha256(bytes));
    }
    expect(await target.stagingSize("upload1")).toBe(0);

    const third = await migrateLocalToS3({ sourceDir: dir, target, log: () => {} });
    expect(third).toMatchObject({ copied: 0, skipped: 6, failed: [] });
  });

  it("npm run storage:migrate: copies with progress and a summary, and refuses to run without STORAGE_URL", async () => {
    const { dir, objects } = await localStore();
    const prefix = `cli-${randomBytes(4).toString("hex")}/`;
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/storage-migrate.ts"], {
        // Only what the script needs: nothing of this test process's storage settings leaks in.
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH!,
          STORAGE_DIR: dir,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
          ...env,
        },
      }).then(
        (result) => ({ code: 0, ...result }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const done = await run(s3.env(prefix));
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      `[storage:migrate] from local directory ${dir} to s3://${s3.bucket}/${prefix} at ${s3.endpoint}, path-style`,
    );
    expect(done.stdout).toMatch(/\[storage:migrate\] done: 6\/6 objects, .*\(copied 6, already there 0, failed 0\)/);
    const config = { ...s3.config(prefix) };
    const target = new S3Storage(createS3Client(config), config.bucket, config.prefix);
    expect(await keysIn(target)).toEqual([...objects.keys()].sort());

    const refused = await run({});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("STORAGE_URL is not set");
  });
});
