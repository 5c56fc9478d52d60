import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { expect, test } from "@playwright/test";
import { runCli } from "../lib/cli/run-cli";
import { databaseUrl } from "../lib/db/embedded-postgres";
import { createS3Client } from "../lib/storage/s3-storage";
import { createTestDatabase } from "../testkit/testing/test-database";
import { startS3rver, type RunningS3rver } from "../testkit/testing/s3rver";
import { nextBin } from "../scripts/lib/ensure-build";

// One import through the browser into S3-compatible storage: a second app server, on its own fresh
// database, with STORAGE_URL pointing at a real s3rver on loopback. The video is over one upload
// chunk (8 MiB), so the resumable upload stages two parts and completes as a multipart upload.
const prefix = "e2e/";
const prompt = "A paper boat drifts along a narrow stream under falling leaves";
let s3: RunningS3rver;
let app: ChildProcess | null = null;
let appUrl: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let root: string;
let videoFile: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function cli(...argv: string[]): Promise<string> {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = database.url;
  try {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
    if (code !== 0) throw new Error(`cli ${argv[0]} failed (${code}): ${err.join("\n")}`);
    return out.join("\n");
  } finally {
    process.env.DATABASE_URL = previous;
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-e2e-s3-"));
  fs.mkdirSync(path.join(root, "Kling", "Mechanics"), { recursive: true });
  videoFile = path.join(root, "Kling", "Mechanics", `${prompt}-0.mp4`);
  // Lossless noise: about 11 MiB for 4 s at 320×240, yet quick to decode.
  execFileSync("ffmpeg", [
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "nullsrc=s=320x240:r=24,geq=random(1)*255:128:128",
    "-t",
    "4",
    "-c:v",
    "libx264",
    "-qp",
    "0",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
    videoFile,
  ]);
  expect(fs.statSync(videoFile).size).toBeGreaterThan(9 * 1024 * 1024);

  s3 = await startS3rver("framejury-e2e");
  database = await createTestDatabase(
    { baseUrl: databaseUrl(process.env.E2E_DATABASE_URL!, "postgres"), stop: async () => {} },
    "e2e_s3",
  );
  const port = await freePort();
  appUrl = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...s3.env(prefix),
    DATABASE_URL: database.url,
    APP_SECRET: "e2e-s3-secret-e2e-s3-secret-e2e-s3-secret-0123",
    APP_URL: appUrl,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  delete env.STORAGE_DIR;
  app = spawn(process.execPath, [nextBin(), "start", "-p", String(port)], {
    cwd: path.resolve("."),
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${appUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (app.exitCode !== null) throw new Error(`The S3-backed app exited (${app.exitCode}).`);
    if (Date.now() > deadline) throw new Error("The S3-backed app did not answer /api/health within 60 s.");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app!.once("exit", resolve));
    app.kill("SIGTERM");
    await exited;
  }
  await database?.drop();
  await s3?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function keysUnder(client: S3Client, under: string): Promise<{ key: string; size: number }[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}${under}` }));
  return (listed.Contents ?? []).map((object) => ({ key: object.Key!.slice(prefix.length), size: object.Size ?? 0 }));
}

test("imports a video into S3-compatible storage: resumable upload, frames, and playback with range requests", async ({
  page,
}) => {
  const email = `s3-${Date.now()}@example.test`;
  await cli("create-user", "--email", email, "--password", "owner-password-1");
  const projectId = await cli("create-project", "--name", "S3 project", "--owner", email);

  await page.goto(`${appUrl}/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("owner-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();

  await page.goto(`${appUrl}/projects/${projectId}/import`);
  await page.getByTestId("folder-input").setInputFiles(path.join(root, "Kling"));
  await expect(page.getByTestId("import-item")).toHaveCount(1);
  await page.getByRole("button", { name: "Start import" }).click();
  const item = page.locator('[data-testid="import-item"][data-path$="-0.mp4"]');
  await expect(item).toHaveAttribute("data-state", "done", { timeout: 90_000 });
  await expect(item.getByTestId("import-item-message")).toContainText("key frames");

  // Everything is in the bucket under the prefix, and nothing of the upload is left behind.
  const bytes = fs.readFileSync(videoFile);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const client = createS3Client(s3.config(prefix));
  expect(await keysUnder(client, `objects/projects/${projectId}/videos/`)).toEqual([
    { key: `objects/projects/${projectId}/videos/${sha256}.mp4`, size: bytes.length },
  ]);
  expect((await keysUnder(client, `objects/projects/${projectId}/frames/`)).length).toBeGreaterThan(1);
  expect(await keysUnder(client, "staging/")).toEqual([]);
  expect(await keysUnder(client, "objects/incoming/")).toEqual([]);

  const list = (await (await page.request.get(`${appUrl}/api/v1/projects/${projectId}/videos`)).json()) as {
    videos: { id: string; sha256: string; thumbnailUrl: string }[];
  };
  expect(list.videos.map((v) => v.sha256)).toEqual([sha256]);
  const videoId = list.videos[0]!.id;

  // Playback: ranges are served from the bucket through the app.
  const ranged = await page.request.get(`${appUrl}/api/v1/videos/${videoId}/file`, {
    headers: { range: "bytes=8388000-8389999" },
  });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()["content-range"]).toBe(`bytes 8388000-8389999/${bytes.length}`);
  expect(Buffer.from(await ranged.body()).equals(bytes.subarray(8388000, 8390000))).toBe(true);
  const tail = await page.request.get(`${appUrl}/api/v1/videos/${videoId}/file`, { headers: { range: "bytes=-100" } });
  expect(Buffer.from(await tail.body()).equals(bytes.subarray(-100))).toBe(true);

  // The video page's player and key frames load from the bucket.
  await page.goto(`${appUrl}/projects/${projectId}/videos/${videoId}`);
  await expect(page.getByTestId("video-prompt")).toHaveText(prompt);
  const width = await page
    .getByTestId("key-frame")
    .first()
    .evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
  expect(width).toBe(320);
});
