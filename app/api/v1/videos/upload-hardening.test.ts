import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { mediaFixtures, type MediaFixtures } from "@/testkit/testing/media-fixtures";
import { serveRoute, type RouteServer } from "@/testkit/testing/route-server";
import { POST as postPromptList } from "../projects/[projectId]/prompt-lists/route";
import { POST as postUpload } from "../projects/[projectId]/uploads/route";
import { POST as postVideo } from "../projects/[projectId]/videos/route";
import { GET as uploadStatus, PUT as putChunk } from "../uploads/[uploadId]/route";
import { POST as postFrameSet } from "./[videoId]/frame-sets/route";

// This file's own storage folder, so "nothing left behind" is about these requests only.
const storageDir = vi.hoisted(() => {
  const dir = require("node:fs").mkdtempSync(
    require("node:path").join(require("node:os").tmpdir(), "framejury-leftovers-"),
  ) as string;
  process.env.STORAGE_DIR = dir;
  return dir;
});

let media: MediaFixtures;
let key: string;
let projectId: string;
let videoServer: RouteServer;
let chunkServer: RouteServer;
const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);

/** Every file under the storage folder except stored objects that belong to registered videos. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(storageDir, path.join(e.parentPath, e.name)));
}
const incomingFiles = () => filesUnder(path.join(storageDir, "objects", "incoming"));

function multipartBody(
  parts: { name: string; filename?: string; content: Buffer | string }[],
  boundary: string,
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ""}`;
    const type = part.filename ? "content-type: application/octet-stream\r\n" : "";
    chunks.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n${type}\r\n`),
      Buffer.from(part.content),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Sends the head and the first `sendBytes` of a body over a raw socket, then drops the connection. */
async function abortMidRequest(
  url: string,
  requestLine: string,
  headers: Record<string, string>,
  body: Buffer,
  sendBytes: number,
) {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const head = Object.entries({ host: `127.0.0.1:${port}`, ...headers, "content-length": String(body.length) })
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n");
  socket.write(`${requestLine}\r\n${head}\r\n\r\n`);
  socket.write(body.subarray(0, sendBytes));
  await new Promise((resolve) => setTimeout(resolve, 300)); // the handler is now streaming the body
  socket.destroy();
}

async function settles(check: () => boolean, ms = 5000) {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  media = mediaFixtures();
  const owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Leftovers" })).id;
  videoServer = await serveRoute(postVideo, () => ({ projectId }));
  chunkServer = await serveRoute(putChunk, (url) => ({ uploadId: url.pathname.split("/").pop()! }));
  process.on("uncaughtException", recordUncaught);
  process.on("unhandledRejection", recordUncaught);
});

afterAll(async () => {
  process.off("uncaughtException", recordUncaught);
  process.off("unhandledRejection", recordUncaught);
  await videoServer?.close();
  await chunkServer?.close();
});

beforeEach(() => {
  uncaught.length = 0;
});
afterEach(() => {
  expect(uncaught.map(String)).toEqual([]);
});

const auth = { authorization: "" };
beforeAll(() => {
  auth.authorization = `Bearer ${key}`;
});

describe("refused multipart uploads leave nothing in storage", () => {
  it("two file parts: 400 and no stored part", async () => {
    const boundary = "b0undary";
    const video = fs.readFileSync(media.goodMp4);
    const response = await fetch(`${videoServer.url}/api/v1/projects/${projectId}/videos`, {
      method: "POST",
      headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: new Uint8Array(
        multipartBody(
          [
            // Large enough that the first part is still being written when the second one arrives.
            { name: "file", filename: "a-0.mp4", content: Buffer.concat([video, Buffer.alloc(8 * 1024 * 1024, 1)]) },
            { name: "file", filename: "b-0.mp4", content: video },
          ],
          boundary,
        ),
      ),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/file part/i);
    await settles(() => incomingFiles().length === 0);
    expect(incomingFiles()).toEqual([]);
    expect(await prisma.video.count({ where: { projectId } })).toBe(0);
  });

  it("a field refused after the file part (an oversized metadata field): 400 and no stored part", async () => {
    const boundary = "b0undary";
    const response = await fetch(`${videoServer.url}/api/v1/projects/${projectId}/videos`, {
      method: "POST",
      headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: new Uint8Array(
        multipartBody(
          [
            { name: "file", filename: "a-0.mp4", content: fs.readFileSync(media.goodMp4) },
            { name: "metadata", content: `{"prompt": "${"x".repeat(5 * 1024 * 1024 + 10)}"}` },
          ],
          boundary,
        ),
      ),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/metadata/);
    await settles(() => incomingFiles().length === 0);
    expect(incomingFiles()).toEqual([]);
  });

  it("metadata that fails validation after the file part: 400 and no stored part", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(fs.readFileSync(media.goodMp4))]), "a-0.mp4");
    form.set("metadata", JSON.stringify({ sampleIndex: "not a number" }));
    const response = await fetch(`${videoServer.url}/api/v1/projects/${projectId}/videos`, {
      method: "POST",
      headers: auth,
      body: form,
    });
    expect(response.status).toBe(400);
    expect(incomingFiles()).toEqual([]);
  });

  it("prompt lists and frame sets: a second or unexpected part is refused without an uncaught error", async () => {
    const form = new FormData();
    form.append("file", new Blob(["a prompt\n"]), "a.txt");
    form.append("file", new Blob(["another prompt\n"]), "b.txt");
    const response = await postPromptList(
      new Request(`http://x/api/v1/projects/${projectId}/prompt-lists`, { method: "POST", headers: auth, body: form }),
      {
        params: Promise.resolve({ projectId }),
      },
    );
    expect(response.status).toBe(400);
    expect(await prisma.promptList.count({ where: { projectId } })).toBe(0);
    const frames = new FormData();
    frames.append("parameters", "{}");
    const refused = await postFrameSet(
      new Request(`http://x/api/v1/videos/nope/frame-sets`, { method: "POST", headers: auth, body: frames }),
      {
        params: Promise.resolve({ videoId: "nope" }),
      },
    );
    expect(refused.status).toBe(404);
  });
});

describe("aborted uploads leave nothing behind and throw nothing", () => {
  it("a multipart upload dropped mid-file leaves no .part file", async () => {
    const boundary = "b0undary";
    const body = multipartBody(
      [{ name: "file", filename: "big-0.mp4", content: Buffer.alloc(4 * 1024 * 1024, 7) }],
      boundary,
    );
    await abortMidRequest(
      videoServer.url,
      `POST /api/v1/projects/${projectId}/videos HTTP/1.1`,
      { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      1024 * 1024,
    );
    await settles(() => incomingFiles().length === 0);
    expect(incomingFiles()).toEqual([]);
  });

  it("a chunk PUT dropped mid-body keeps the bytes that arrived for resuming, and the upload resumes", async () => {
    const bytes = fs.readFileSync(media.otherMp4);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const created = await postUpload(
      new Request(`http://x/api/v1/projects/${projectId}/uploads`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ relativePath: "Dropped/resumed-0.mp4", sizeBytes: bytes.length, sha256 }),
      }),
      { params: Promise.resolve({ projectId }) },
    );
    const { uploadId } = (await created.json()) as { uploadId: string };
    await abortMidRequest(
      chunkServer.url,
      `PUT /api/v1/uploads/${uploadId}?offset=0 HTTP/1.1`,
      { ...auth, "content-type": "application/octet-stream" },
      bytes,
      1000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const status = async () =>
      (await (
        await uploadStatus(new Request(`http://x/api/v1/uploads/${uploadId}`, { headers: auth }), {
          params: Promise.resolve({ uploadId }),
        })
      ).json()) as {
        receivedBytes: number;
      };
    const { receivedBytes } = await status();
    expect(receivedBytes).toBeLessThanOrEqual(1000);
    const rest = await fetch(`${chunkServer.url}/api/v1/uploads/${uploadId}?offset=${receivedBytes}`, {
      method: "PUT",
      headers: auth,
      body: new Uint8Array(bytes.subarray(receivedBytes)),
    });
    expect(rest.status).toBe(200);
    expect((await status()).receivedBytes).toBe(bytes.length);
    expect(filesUnder(storageDir).filter((f) => f.endsWith(".part"))).toEqual([]);
  });
});

describe("chunk appends are serialised per upload", () => {
  async function startUpload(relativePath: string, sizeBytes: number, sha256 = "0".repeat(64)) {
    const created = await postUpload(
      new Request(`http://x/api/v1/projects/${projectId}/uploads`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ relativePath, sizeBytes, sha256 }),
      }),
      { params: Promise.resolve({ projectId }) },
    );
    expect(created.status).toBe(201);
    return ((await created.json()) as { uploadId: string }).uploadId;
  }
  const stagingSize = (uploadId: string) => {
    const file = path.join(storageDir, "staging", uploadId);
    return fs.existsSync(file) ? fs.statSync(file).size : 0;
  };

  it("four parallel PUTs at offset 0: one is appended, the others get 409 offset_mismatch", async () => {
    const piece = Buffer.alloc(32 * 1024, 3);
    const pieces = 32;
    const uploadId = await startUpload("Parallel/four-0.mp4", piece.length * pieces);
    // The server's first request loads code; take that delay out of the race.
    expect(
      (await fetch(`${chunkServer.url}/api/v1/uploads/none?offset=0`, { method: "PUT", headers: auth, body: "x" }))
        .status,
    ).toBe(404);
    // Each on its own connection, its body trickling in, so the four requests are all writing at once.
    const trickle = () =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        // Its own keep-alive agent: a connection of its own that the server does not close after
        // answering a loser early (it drains the rest), so the client's next write cannot hit EPIPE
        // before it has read the answer, as it could with `agent: false` (Connection: close).
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const request = http.request(
          `${chunkServer.url}/api/v1/uploads/${uploadId}?offset=0`,
          { method: "PUT", headers: auth, agent },
          (response) => {
            let body = "";
            response.setEncoding("utf8").on("data", (text: string) => (body += text));
            response.on("end", () => {
              agent.destroy();
              resolve({ status: response.statusCode!, body });
            });
          },
        );
        // A loser is answered before its body is sent; the client then stops writing. Should the
        // connection still fail before the answer was read, that is an error of the test run.
        let answered = false;
        request.on("response", () => (answered = true));
        request.on("error", (error) => {
          if (!answered) reject(error);
        });
        void (async () => {
          for (let i = 0; i < pieces && !request.destroyed && !answered; i++) {
            request.write(piece);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          request.end();
        })();
      });
    const answers = await Promise.all(Array.from({ length: 4 }, trickle));
    const responses = answers.map((a) => ({ status: a.status, json: async () => JSON.parse(a.body) as unknown }));
    const bytes = { length: piece.length * pieces };
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as {
      receivedBytes?: number;
      error?: { code: string };
    }[];
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(bodies.filter((b) => b.error).map((b) => b.error!.code)).toEqual([
      "offset_mismatch",
      "offset_mismatch",
      "offset_mismatch",
    ]);
    expect(stagingSize(uploadId)).toBe(bytes.length);
    const session = await prisma.uploadSession.findUniqueOrThrow({ where: { id: uploadId } });
    expect(Number(session.receivedBytes)).toBe(bytes.length);
    expect(session.appendingUntil).toBeNull();
  });

  it("a chunk that would pass the declared size is refused and nothing of it is kept", async () => {
    const uploadId = await startUpload("Parallel/overrun-0.mp4", 1000);
    const declared = await fetch(`${chunkServer.url}/api/v1/uploads/${uploadId}?offset=0`, {
      method: "PUT",
      headers: auth,
      body: new Uint8Array(1001),
    });
    expect(declared.status).toBe(413);
    expect(stagingSize(uploadId)).toBe(0);
    // Without a Content-Length (a streamed body) the overrun is cut off on arrival.
    const streamed = await fetch(`${chunkServer.url}/api/v1/uploads/${uploadId}?offset=0`, {
      method: "PUT",
      headers: auth,
      body: new Blob([new Uint8Array(600 * 1024)]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(stagingSize(uploadId)).toBe(0);
    const fits = await fetch(`${chunkServer.url}/api/v1/uploads/${uploadId}?offset=0`, {
      method: "PUT",
      headers: auth,
      body: new Uint8Array(1000),
    });
    expect(fits.status).toBe(200);
  });

  it("an append held by another request is refused; a lease left by a dead process runs out", async () => {
    const uploadId = await startUpload("Parallel/lease-0.mp4", 10);
    await prisma.$executeRaw`UPDATE "upload_session" SET "appendingUntil" = now() + interval '1 minute' WHERE "id" = ${uploadId}`;
    const held = await fetch(`${chunkServer.url}/api/v1/uploads/${uploadId}?offset=0`, {
      method: "PUT",
      headers: auth,
      body: new Uint8Array(10),
    });
    expect(held.status).toBe(409);
    expect(((await held.json()) as { error: { code: string } }).error.code).toBe("offset_mismatch");
    await prisma.$executeRaw`UPDATE "upload_session" SET "appendingUntil" = now() - interval '1 second' WHERE "id" = ${uploadId}`;
    const expired = await fetch(`${chunkServer.url}/api/v1/uploads/${uploadId}?offset=0`, {
      method: "PUT",
      headers: auth,
      body: new Uint8Array(10),
    });
    expect(expired.status).toBe(200);
    expect(stagingSize(uploadId)).toBe(10);
  });
});
