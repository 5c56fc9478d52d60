import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { declaredAnswer } from "@/testkit/testing/declared-answer";
import { mediaFixtures, uniqueMp4, type MediaFixtures } from "@/testkit/testing/media-fixtures";
import { POST as postVideo, GET as listVideos } from "../projects/[projectId]/videos/route";
import { POST as postUpload } from "../projects/[projectId]/uploads/route";
import { GET as uploadStatus, PUT as putChunk } from "../uploads/[uploadId]/route";
import { POST as completeUpload } from "../uploads/[uploadId]/complete/route";
import { GET as getVideo } from "./[videoId]/route";
import { GET as getVideoFile } from "./[videoId]/file/route";
import { POST as postFrameSet } from "./[videoId]/frame-sets/route";
import { GET as getFrameImage } from "../frames/[frameId]/image/route";

let media: MediaFixtures;
let key: string;
let projectId: string;
let strangerKey: string;
let viewerKey: string;

const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const auth = (k: string) => ({ authorization: `Bearer ${k}` });

function videoForm(file: string, options: { path?: string; metadata?: unknown; name?: string } = {}) {
  const form = new FormData();
  if (options.path) form.set("path", options.path);
  if (options.metadata) form.set("metadata", JSON.stringify(options.metadata));
  form.set("file", new Blob([fs.readFileSync(file)]), options.name ?? path.basename(file));
  return form;
}

async function upload(k: string, project: string, form: FormData) {
  const response = await postVideo(
    new Request(`http://x/api/v1/projects/${project}/videos`, { method: "POST", headers: auth(k), body: form }),
    ctx({ projectId: project }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  media = mediaFixtures();
  const owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  const project = await createProject(prisma, owner, { name: "Videos" });
  projectId = project.id;
  const stranger = await makeUser();
  strangerKey = (await createApiKey(prisma, stranger.userId, "t")).key;
  const viewer = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  viewerKey = (await createApiKey(prisma, viewer.userId, "t")).key;
});

describe("POST /api/v1/projects/:id/videos", () => {
  it("registers a video from its VBench path, probes it, and refuses the same bytes twice", async () => {
    const { status, body } = await upload(
      key,
      projectId,
      videoForm(media.goodMp4, { path: "Sora/Mechanics/A ball rolls off a table-2.mp4" }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      fileName: "A ball rolls off a table-2.mp4",
      prompt: "A ball rolls off a table",
      sampleIndex: 2,
      dimensions: ["Mechanics"],
      model: "Sora",
      status: "pending_extraction",
      width: 320,
      height: 180,
      codec: "avc",
      frameCount: 50,
    });
    expect(body.durationS).toBeCloseTo(2, 1);
    expect(body.sha256).toBe(createHash("sha256").update(fs.readFileSync(media.goodMp4)).digest("hex"));

    const again = await upload(key, projectId, videoForm(media.goodMp4, { path: "elsewhere/copy-0.mp4" }));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("duplicate");
    expect(again.body.error.message).toContain(body.id);
    expect(await prisma.video.count({ where: { projectId, sha256: body.sha256 } })).toBe(1);
  });

  it("takes explicit metadata over the path", async () => {
    const { status, body } = await upload(
      key,
      projectId,
      videoForm(media.goodWebm, {
        path: "x/whatever-1.webm",
        metadata: {
          prompt: "A full prompt",
          dimension: ["Thermotics", "Material"],
          model: "Kling",
          sampleIndex: 7,
          extra: { cfg: 7.5 },
        },
      }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      prompt: "A full prompt",
      dimensions: ["Thermotics", "Material"],
      model: "Kling",
      sampleIndex: 7,
      extra: { cfg: 7.5 },
      codec: "vp8",
    });
  });

  it.each([
    ["empty", () => media.empty, 422, "empty", /empty/],
    ["a text file named .mp4", () => media.textAsMp4, 422, "not_a_video", /Not a video/],
    ["audio only", () => media.audioOnly, 422, "audio_only", /no video track/],
    ["truncated", () => media.truncatedMp4, 422, "corrupt", /damaged or truncated/],
  ])("refuses %s with a clear message and stores nothing", async (_label, file, status, code, message) => {
    const before = await prisma.video.count({ where: { projectId } });
    const name = path.basename(file()).replace(/\.m4a$/, ".mp4");
    const result = await upload(key, projectId, videoForm(file(), { name }));
    expect(result.status).toBe(status);
    expect(result.body.error.code).toBe(code);
    expect(result.body.error.message).toMatch(message);
    expect(await prisma.video.count({ where: { projectId } })).toBe(before);
    const incoming = path.join(process.env.STORAGE_DIR!, "objects", "incoming");
    expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
  });

  it.each([
    ["a .. segment", "../escape-0.mp4"],
    ["a control character", "bad\u0007name-0.mp4"],
    ["a 300-byte name", `${"é".repeat(150)}-0.mp4`],
    ["a non-video extension", "notes-0.txt"],
  ])("refuses a name with %s", async (_label, name) => {
    const result = await upload(key, projectId, videoForm(media.otherMp4, { path: name }));
    expect(result.status).toBe(400);
    expect(result.body.error.message.length).toBeGreaterThan(10);
  });

  it("refuses files over MAX_UPLOAD_BYTES without keeping any of it", async () => {
    process.env.MAX_UPLOAD_BYTES = "1000";
    try {
      const result = await upload(key, projectId, videoForm(media.otherMp4, { path: "big-0.mp4" }));
      expect(result.status).toBe(413);
      expect(result.body.error.code).toBe("too_large");
    } finally {
      delete process.env.MAX_UPLOAD_BYTES;
    }
  });

  it("gives non-members 404 and viewers 403", async () => {
    expect((await upload(strangerKey, projectId, videoForm(media.otherMp4))).status).toBe(404);
    expect((await upload(viewerKey, projectId, videoForm(media.otherMp4))).status).toBe(403);
    const list = await listVideos(
      new Request(`http://x/api/v1/projects/${projectId}/videos`, { headers: auth(strangerKey) }),
      ctx({ projectId }),
    );
    expect(list.status).toBe(404);
  });
});

describe("resumable uploads", () => {
  it("resumes after a partial chunk and checks the SHA-256 on arrival", async () => {
    const bytes = fs.readFileSync(media.otherMp4);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const created = await postUpload(
      new Request(`http://x/api/v1/projects/${projectId}/uploads`, {
        method: "POST",
        headers: { ...auth(key), "content-type": "application/json" },
        body: JSON.stringify({
          relativePath: "Runway/Thermotics/Ice melts in the sun-0.mp4",
          sizeBytes: bytes.length,
          sha256,
        }),
      }),
      ctx({ projectId }),
    );
    expect(created.status).toBe(201);
    const session = await created.json();
    // Each answer is what the route's declared schema says, field for field (a field it does not declare is stripped).
    expect(declaredAnswer(postUpload, 201, session)).toEqual(session);
    const { uploadId } = session as { uploadId: string };
    const put = (offset: number, chunk: Uint8Array) =>
      putChunk(
        new Request(`http://x/api/v1/uploads/${uploadId}?offset=${offset}`, {
          method: "PUT",
          headers: auth(key),
          body: new Uint8Array(chunk),
        }),
        ctx({ uploadId }),
      );

    const half = Math.floor(bytes.length / 2);
    expect((await put(0, bytes.subarray(0, half))).status).toBe(200);
    // A retry of an old offset after a dropped response: told where to resume.
    const stale = await put(0, bytes.subarray(0, half));
    expect(stale.status).toBe(409);
    const status = (await (
      await uploadStatus(new Request(`http://x/api/v1/uploads/${uploadId}`, { headers: auth(key) }), ctx({ uploadId }))
    ).json()) as { receivedBytes: number };
    expect(status.receivedBytes).toBe(half);
    expect(declaredAnswer(uploadStatus, 200, status)).toEqual(status);
    const rest = await put(half, bytes.subarray(half));
    expect(rest.status).toBe(200);
    const restBody = await rest.json();
    expect(declaredAnswer(putChunk, 200, restBody)).toEqual(restBody);

    const done = await completeUpload(
      new Request(`http://x/api/v1/uploads/${uploadId}/complete`, { method: "POST", headers: auth(key) }),
      ctx({ uploadId }),
    );
    expect(done.status).toBe(201);
    const video = await done.json();
    expect(video).toMatchObject({
      sha256,
      prompt: "Ice melts in the sun",
      model: "Runway",
      dimensions: ["Thermotics"],
    });
    expect(declaredAnswer(completeUpload, 201, video)).toEqual(video);

    const someoneElse = await uploadStatus(
      new Request(`http://x/api/v1/uploads/${uploadId}`, { headers: auth(strangerKey) }),
      ctx({ uploadId }),
    );
    expect(someoneElse.status).toBe(404);
  });

  it("refuses bytes that do not hash to the declared SHA-256", async () => {
    const bytes = fs.readFileSync(media.goodWebm);
    const created = await postUpload(
      new Request(`http://x/api/v1/projects/${projectId}/uploads`, {
        method: "POST",
        headers: { ...auth(key), "content-type": "application/json" },
        body: JSON.stringify({ relativePath: "lying-0.webm", sizeBytes: bytes.length, sha256: "0".repeat(64) }),
      }),
      ctx({ projectId }),
    );
    const { uploadId } = (await created.json()) as { uploadId: string };
    await putChunk(
      new Request(`http://x/api/v1/uploads/${uploadId}?offset=0`, { method: "PUT", headers: auth(key), body: bytes }),
      ctx({ uploadId }),
    );
    const done = await completeUpload(
      new Request(`http://x/`, { method: "POST", headers: auth(key) }),
      ctx({ uploadId }),
    );
    expect(done.status).toBe(422);
    expect(((await done.json()) as { error: { message: string } }).error.message).toMatch(/SHA-256 mismatch/);
  });
});

describe("frame sets, playback and frames", () => {
  it("stores a client's frames all-or-nothing, once per parameter set, and serves them to members only", async () => {
    const { status, body: video } = await upload(
      key,
      projectId,
      videoForm(uniqueMp4("frames"), { path: "frames-test-0.mp4" }),
    );
    expect(status).toBe(201);
    const jpeg = fs.readFileSync(media.jpeg);
    const manifest = [
      { name: "f0.jpg", index: 0, timestampS: 0.125, isKeyFrame: false, cluster: 1 },
      { name: "f1.jpg", index: 1, timestampS: 0.375, isKeyFrame: true, cluster: 1 },
      { name: "f2.jpg", index: 2, timestampS: 0.625, isKeyFrame: false, cluster: 1 },
    ];
    const frameForm = (
      m: unknown,
      parts: [string, Uint8Array][],
      parameters: unknown = { mode: "density-peaks", sampleFps: 4 },
    ) => {
      const form = new FormData();
      form.set("parameters", JSON.stringify(parameters));
      form.set("manifest", JSON.stringify(m));
      for (const [name, data] of parts) form.append(name, new Blob([new Uint8Array(data)]), name);
      return form;
    };
    const send = (form: FormData, k = key) =>
      postFrameSet(
        new Request(`http://x/api/v1/videos/${video.id}/frame-sets`, { method: "POST", headers: auth(k), body: form }),
        ctx({ videoId: video.id }),
      );

    const missing = await send(
      frameForm(manifest, [
        ["f0.jpg", jpeg],
        ["f1.jpg", jpeg],
      ]),
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error.message).toMatch(/missing file parts for: f2.jpg/);
    const extras = Array.from({ length: 7 }, (_, i): [string, Uint8Array] => [`x${i}.jpg`, jpeg]);
    const unexpected = await send(
      frameForm(manifest, [["f0.jpg", jpeg], ["f1.jpg", jpeg], ["f2.jpg", jpeg], ...extras]),
    );
    expect(unexpected.status).toBe(400);
    expect(((await unexpected.json()) as any).error.message).toContain(
      "file parts not in the manifest: x0.jpg, x1.jpg, x2.jpg, x3.jpg, x4.jpg and 2 more",
    );
    const notJpeg = await send(
      frameForm(manifest, [
        ["f0.jpg", jpeg],
        ["f1.jpg", jpeg],
        ["f2.jpg", new TextEncoder().encode("nope")],
      ]),
    );
    expect(notJpeg.status).toBe(400);
    expect(((await notJpeg.json()) as any).error.message).toMatch(/f2.jpg is not a JPEG/);
    const badCluster = await send(
      frameForm(
        [{ ...manifest[0], cluster: 2 }, manifest[1], manifest[2]],
        [
          ["f0.jpg", jpeg],
          ["f1.jpg", jpeg],
          ["f2.jpg", jpeg],
        ],
      ),
    );
    expect(badCluster.status).toBe(400);
    expect(await prisma.frameSet.count({ where: { videoId: video.id } })).toBe(0);
    expect(
      (
        await send(
          frameForm(manifest, [
            ["f0.jpg", jpeg],
            ["f1.jpg", jpeg],
            ["f2.jpg", jpeg],
          ]),
          viewerKey,
        )
      ).status,
    ).toBe(403);

    const createdForm = frameForm(manifest, [
      ["f0.jpg", jpeg],
      ["f1.jpg", jpeg],
      ["f2.jpg", jpeg],
    ]);
    createdForm.set("decoder", "webcodecs");
    createdForm.set("decoderVersion", "Chrome 156.0.0.0");
    const created = await send(createdForm);
    expect(created.status).toBe(201);
    const again = await send(
      frameForm(
        manifest,
        [
          ["f0.jpg", jpeg],
          ["f1.jpg", jpeg],
          ["f2.jpg", jpeg],
        ],
        { sampleFps: 4, mode: "density-peaks" },
      ),
    );
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).created).toBe(false);
    expect(await prisma.frameSet.count({ where: { videoId: video.id } })).toBe(1);

    const detail = (await (
      await getVideo(new Request("http://x", { headers: auth(viewerKey) }), ctx({ videoId: video.id }))
    ).json()) as any;
    expect(declaredAnswer(getVideo, 200, detail)).toEqual(detail);
    expect(detail.status).toBe("ready");
    // Which decoder made the frame set, and its build, as the extracting client said.
    expect([detail.frameSets[0].decoder, detail.frameSets[0].decoderVersion]).toEqual([
      "webcodecs",
      "Chrome 156.0.0.0",
    ]);
    expect(
      detail.frameSets[0].frames.map((f: any) => [f.index, f.timestampS, f.isKeyFrame, f.cluster, f.width, f.height]),
    ).toEqual([
      [0, 0.125, false, 1, 64, 48],
      [1, 0.375, true, 1, 64, 48],
      [2, 0.625, false, 1, 64, 48],
    ]);
    const frameId = detail.frameSets[0].frames[1].id as string;
    const image = await getFrameImage(new Request("http://x", { headers: auth(viewerKey) }), ctx({ frameId }));
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(
      (await getFrameImage(new Request("http://x", { headers: auth(strangerKey) }), ctx({ frameId }))).status,
    ).toBe(404);
    expect(
      (await getVideo(new Request("http://x", { headers: auth(strangerKey) }), ctx({ videoId: video.id }))).status,
    ).toBe(404);
  });

  it("serves the video with HTTP range requests", async () => {
    const file = uniqueMp4("range");
    const { status, body: video } = await upload(key, projectId, videoForm(file, { path: "range-0.mp4" }));
    expect(status).toBe(201);
    const bytes = fs.readFileSync(file);
    const ranged = await getVideoFile(
      new Request("http://x", { headers: { ...auth(viewerKey), range: "bytes=100-199" } }),
      ctx({ videoId: video.id }),
    );
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const whole = await getVideoFile(new Request("http://x", { headers: auth(viewerKey) }), ctx({ videoId: video.id }));
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    const beyond = await getVideoFile(
      new Request("http://x", { headers: { ...auth(viewerKey), range: `bytes=${bytes.length + 5}-` } }),
      ctx({ videoId: video.id }),
    );
    expect(beyond.status).toBe(416);
    expect(
      (await getVideoFile(new Request("http://x", { headers: auth(strangerKey) }), ctx({ videoId: video.id }))).status,
    ).toBe(404);
  });
});
