// The optional Compose profiles as `npm run test:container` brings them up (scripts/test-container.ts): `s3` (the
// app stores videos in the bucket it makes), `extract` (the extract worker extracts a registered video's frames) and
// `demo` (it answers on 127.0.0.1:3001 and on no other interface). MinIO's images cannot be pulled here:
// deploy/test/minio.Dockerfile stands in for both, with s3rver.
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Api, check, CheckFailed, type Compose, docker, log, WaitInVain, waitFor } from "./container-test";

const MINIO_PORT = 9000;
const DEMO_PORT = 3001;

/** The settings that put the app's storage in the `s3` profile's bucket (compose.yaml's STORAGE_URL and S3_*). */
export function s3Settings(minioImage: string): Record<string, string> {
  return {
    COMPOSE_PROFILES: "s3,extract",
    MINIO_IMAGE: minioImage,
    MINIO_CLIENT_IMAGE: minioImage,
    STORAGE_URL: "s3://framejury",
    S3_BUCKET: "framejury",
    S3_ENDPOINT: `http://minio:${MINIO_PORT}`,
    S3_ACCESS_KEY_ID: "framejury",
    S3_SECRET_ACCESS_KEY: randomBytes(16).toString("hex"),
  };
}

function bucketClient(settings: Record<string, string>): S3Client {
  return new S3Client({
    endpoint: `http://127.0.0.1:${MINIO_PORT}`,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID!, secretAccessKey: settings.S3_SECRET_ACCESS_KEY! },
  });
}

async function bucketObjects(client: S3Client, bucket: string): Promise<{ key: string; size: number }[]> {
  const objects: { key: string; size: number }[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const item of page.Contents ?? []) objects.push({ key: item.Key ?? "", size: item.Size ?? 0 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

/** Registers one video through the API (multipart, as a lab's script would), without frames. */
async function registerVideo(api: Api, projectId: string, clip: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([fs.readFileSync(clip)], { type: "video/mp4" }), path.basename(clip));
  const response = await fetch(`${api.base}/api/v1/projects/${projectId}/videos`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}` },
    body: form,
  });
  const text = await response.text();
  check(
    response.status === 201,
    `registering ${path.basename(clip)} answered ${response.status}: ${text.slice(0, 300)}`,
  );
  return (JSON.parse(text) as { id: string }).id;
}

/**
 * With the `s3` and `extract` profiles up (`compose` with s3Settings) and the app's storage in the bucket: a video
 * registered through the API is stored in the bucket, and the extract worker extracts its frames (stored there too).
 * `startApp` waits until web is healthy.
 */
export async function checkS3AndExtract(
  compose: Compose,
  settings: Record<string, string>,
  api: Api,
  projectId: string,
  clip: string,
  startApp: () => Promise<unknown>,
): Promise<void> {
  compose(["up", "-d", "minio-bucket"]);
  await waitFor(
    "the minio-bucket one-off to make the bucket",
    () => {
      const [bucketJob] = compose.containers("minio-bucket");
      if (!bucketJob) return null;
      const state = docker(["inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", bucketJob]).trim();
      if (state === "exited 0") return true;
      if (state.startsWith("exited"))
        throw new WaitInVain(`minio-bucket ${state}:\n${docker(["logs", "--tail", "40", bucketJob])}`);
      return null;
    },
    3 * 60_000,
  );
  const client = bucketClient(settings);
  check((await bucketObjects(client, settings.S3_BUCKET!)).length === 0, "the new bucket is not empty");
  log(`the s3 profile is up: MinIO stand-in on 127.0.0.1:${MINIO_PORT}, bucket ${settings.S3_BUCKET} made`);

  compose(["up", "-d", "web", "extract-worker"]);
  await startApp();
  const videoId = await registerVideo(api, projectId, clip);
  const stored = await bucketObjects(client, settings.S3_BUCKET!);
  const size = fs.statSync(clip).size;
  check(
    stored.some((object) => object.size === size),
    `no object of the clip's ${size} bytes in the bucket: ${JSON.stringify(stored).slice(0, 500)}`,
  );
  log(`the app stored the registered video in the bucket (${stored.length} object(s))`);

  const status = await waitFor(
    `the extract worker to extract video ${videoId}'s frames`,
    async () => {
      const listed = await api.call<{ videos: { id: string; status: string }[] }>(
        "GET",
        `/api/v1/projects/${projectId}/videos`,
      );
      const video = listed.videos.find((item) => item.id === videoId);
      if (!video) throw new WaitInVain(`video ${videoId} is not listed`);
      return video.status === "pending_extraction" ? null : video.status;
    },
    4 * 60_000,
    2000,
  );
  check(status === "ready", `the extract worker left video ${videoId} ${status}`);
  const after = await bucketObjects(client, settings.S3_BUCKET!);
  check(after.length > stored.length, `the bucket holds no frames after extraction (${after.length} objects)`);
  log(`the extract worker extracted the video's frames: it is ready, ${after.length - stored.length} new object(s)`);
}

/** The host's addresses other than loopback, where the demo must not answer. */
function otherAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((address) => address && !address.internal && address.family === "IPv4")
    .map((address) => address!.address);
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * The `demo` profile's demo answers on 127.0.0.1:3001 and not on the host's other addresses. `compose` must have
 * COMPOSE_PROFILES=demo; the demo is on the project's own network, so its published port is what is checked.
 */
export async function checkDemo(compose: Compose): Promise<void> {
  compose(["up", "-d", "demo"]);
  await waitFor(
    `the demo to answer on 127.0.0.1:${DEMO_PORT}`,
    async () => {
      const [demo] = compose.containers("demo");
      const state = demo ? docker(["inspect", "--format", "{{.State.Status}}", demo]).trim() : "";
      if (state === "exited" || state === "dead")
        throw new WaitInVain(`the demo container ${state}:\n${docker(["logs", "--tail", "60", demo!])}`);
      const response = await fetch(`http://127.0.0.1:${DEMO_PORT}/api/health`);
      return response.ok;
    },
    8 * 60_000,
    2000,
  );
  const others = otherAddresses();
  check(others.length > 0, "this machine has no address but loopback: cannot check the demo is not published on one");
  for (const address of others) {
    if (await answers(`http://${address}:${DEMO_PORT}/api/health`))
      throw new CheckFailed(`the demo answers on ${address}:${DEMO_PORT}, not on loopback only`);
  }
  log(`the demo answers on 127.0.0.1:${DEMO_PORT} and not on ${others.join(", ")}`);
  compose(["rm", "--stop", "--force", "demo"]);
}
