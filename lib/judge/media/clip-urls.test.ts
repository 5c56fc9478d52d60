import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/clips/[token]/route";
import { prisma } from "../../db/prisma";
import { getStorage } from "../../storage/storage";
import { makeUser } from "../../../testkit/testing/fixtures";
import { mediaFixtures } from "../../../testkit/testing/media-fixtures";
import { insertEndpoint, insertFinishedRun, insertProject, insertVideo } from "../../../testkit/testing/raw-rows";
import { MAX_CLIP_URL_TTL_S, signedClipToken, signedClipUrl } from "./clip-urls";

let runId: string;
let videoId: string;
let audioVideoId: string;
let otherRunId: string;
let clipBytes: Buffer;

/** A stored file as a video row of the project. */
async function storedVideo(projectId: string, ownerId: string, file: string, name: string): Promise<string> {
  const bytes = fs.readFileSync(file);
  const sha = createHash("sha256").update(bytes).update(randomUUID()).digest("hex");
  const storageKey = `projects/${projectId}/videos/${sha}.mp4`;
  await getStorage().put(storageKey, bytes);
  return insertVideo(prisma, {
    projectId,
    sha256: sha,
    sizeBytes: BigInt(bytes.length),
    fileName: name,
    relativePath: name,
    storageKey,
    contentType: "video/mp4",
    status: "ready",
    dimensions: [],
    createdById: ownerId,
  });
}

beforeAll(async () => {
  const owner = await makeUser();
  const projectId = await insertProject(prisma, "Clip URLs", owner.userId);
  const endpointId = await insertEndpoint(prisma, {
    projectId,
    name: "stub",
    baseUrl: "http://127.0.0.1:9/v1",
    model: "stub-vision",
    createdById: owner.userId,
  });
  const run = { projectId, pipeline: "hallucination", endpointId, createdById: owner.userId, endpointSnapshot: {} };
  runId = await insertFinishedRun(prisma, run);
  clipBytes = fs.readFileSync(mediaFixtures().goodMp4);
  videoId = await storedVideo(projectId, owner.userId, mediaFixtures().goodMp4, "good.mp4");
  audioVideoId = await storedVideo(projectId, owner.userId, mediaFixtures().audioOnly, "tone.mp4");
  // A run of another project: a URL naming it with this project's video names nothing.
  const otherProject = await insertProject(prisma, "Other", owner.userId);
  const otherEndpoint = await insertEndpoint(prisma, {
    ...run,
    projectId: otherProject,
    name: "x",
    baseUrl: "http://127.0.0.1:9/v1",
    model: "m",
  });
  otherRunId = await insertFinishedRun(prisma, { ...run, projectId: otherProject, endpointId: otherEndpoint });
});

const fetchClip = (token: string) => GET(new Request(`http://localhost:3000/api/v1/clips/${token}`));

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe("signed clip URLs", () => {
  it("serve the clip once, with its type and length, to a fetch with no session", async () => {
    const url = signedClipUrl(videoId, runId, 60);
    expect(url).toMatch(/\/api\/v1\/clips\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const token = url!.split("/").at(-1)!;
    const response = await fetchClip(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("video/mp4");
    expect(response.headers.get("content-length")).toBe(String(clipBytes.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(clipBytes)).toBe(true);

    // Fetched twice: a clear 410, the URL is spent.
    expect(await errorOf(await fetchClip(token))).toMatchObject({ status: 410, code: "clip_url_used" });
  });

  it("refuse an expired URL with a 410 naming the expiry", async () => {
    const token = signedClipToken({ videoId, runId, ttlS: 30, now: new Date(Date.now() - 31_000) });
    const refused = await errorOf(await fetchClip(token));
    expect(refused).toMatchObject({ status: 410, code: "clip_url_expired" });
    expect(refused.message).toMatch(/expired/);
  });

  it("refuse a tampered token (403) and one that is no token (404)", async () => {
    const token = signedClipToken({ videoId, runId, ttlS: 60 });
    const [claims, signature] = token.split(".") as [string, string];
    const decoded = JSON.parse(Buffer.from(claims, "base64url").toString()) as { v: string };
    // Another video under the same signature: the claims were altered.
    const altered = Buffer.from(JSON.stringify({ ...decoded, v: audioVideoId })).toString("base64url");
    expect(await errorOf(await fetchClip(`${altered}.${signature}`))).toMatchObject({ status: 403 });
    // A signature changed in one character.
    const flipped = `${claims}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    expect((await fetchClip(flipped)).status).toBe(403);
    expect((await fetchClip("not-a-token")).status).toBe(404);
    // The untouched token still works: the refusals spent nothing.
    expect((await fetchClip(token)).status).toBe(200);
  });

  it("refuse a clip with no video stream with a 422, and the URL stays unspent", async () => {
    const token = signedClipToken({ videoId: audioVideoId, runId, ttlS: 60 });
    const refused = await errorOf(await fetchClip(token));
    expect(refused).toMatchObject({ status: 422, code: "no_video_stream" });
    expect(refused.message).toMatch(/no video stream/);
    expect(await prisma.clipUrlFetch.count({ where: { videoId: audioVideoId } })).toBe(0);
  });

  it("refuse a URL whose run is not the video's project's (404), and a video that is gone", async () => {
    expect((await fetchClip(signedClipToken({ videoId, runId: otherRunId, ttlS: 60 }))).status).toBe(404);
    expect((await fetchClip(signedClipToken({ videoId: "no-such-video", runId, ttlS: 60 }))).status).toBe(404);
  });

  it("live between 1 s and the longest TTL", () => {
    expect(() => signedClipToken({ videoId, runId, ttlS: 0 })).toThrow(RangeError);
    expect(() => signedClipToken({ videoId, runId, ttlS: MAX_CLIP_URL_TTL_S + 1 })).toThrow(RangeError);
  });
});
