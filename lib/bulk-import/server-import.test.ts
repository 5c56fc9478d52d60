import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getVideo } from "@/app/api/v1/videos/[videoId]/route";
import { POST as postExtractionError } from "@/app/api/v1/videos/[videoId]/extraction-error/route";
import { POST as postFrameSet } from "@/app/api/v1/videos/[videoId]/frame-sets/route";
import { POST as postPromptList } from "@/app/api/v1/projects/[projectId]/prompt-lists/route";
import { POST as postUpload } from "@/app/api/v1/projects/[projectId]/uploads/route";
import { POST as completeUpload } from "@/app/api/v1/uploads/[uploadId]/complete/route";
import { DELETE as deleteUpload, GET as getUpload, PUT as putChunk } from "@/app/api/v1/uploads/[uploadId]/route";
import { createApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { mediaFixtures, uniqueMp4 } from "../../testkit/testing/media-fixtures";
import { serveRoute, type RouteServer } from "../../testkit/testing/route-server";
import { importFolders } from "./import-folder";
import { serverTarget } from "./import-target";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The routes a headless import calls, by method and path pattern, each with the params Next.js would pass. */
const ROUTES: [string, RegExp, Handler, string][] = [
  ["POST", /^\/api\/v1\/projects\/([^/]+)\/prompt-lists$/, postPromptList as Handler, "projectId"],
  ["POST", /^\/api\/v1\/projects\/([^/]+)\/uploads$/, postUpload as Handler, "projectId"],
  ["GET", /^\/api\/v1\/uploads\/([^/]+)$/, getUpload as Handler, "uploadId"],
  ["PUT", /^\/api\/v1\/uploads\/([^/]+)$/, putChunk as Handler, "uploadId"],
  ["DELETE", /^\/api\/v1\/uploads\/([^/]+)$/, deleteUpload as Handler, "uploadId"],
  ["POST", /^\/api\/v1\/uploads\/([^/]+)\/complete$/, completeUpload as Handler, "uploadId"],
  ["GET", /^\/api\/v1\/videos\/([^/]+)$/, getVideo as Handler, "videoId"],
  ["POST", /^\/api\/v1\/videos\/([^/]+)\/frame-sets$/, postFrameSet as Handler, "videoId"],
  ["POST", /^\/api\/v1\/videos\/([^/]+)\/extraction-error$/, postExtractionError as Handler, "videoId"],
];

const dispatch: Handler = async (request) => {
  const { pathname } = new URL(request.url);
  for (const [method, pattern, handler, param] of ROUTES) {
    const match = request.method === method ? pattern.exec(pathname) : null;
    if (match) return handler(request, { params: Promise.resolve({ [param]: decodeURIComponent(match[1]!) }) });
  }
  return Response.json({ error: { code: "not_found", message: `${request.method} ${pathname}` } }, { status: 404 });
};

let server: RouteServer;
let folder: string;

beforeAll(async () => {
  server = await serveRoute(dispatch, () => ({}));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-server-import-"));
  folder = path.join(root, "Kling");
  fs.mkdirSync(path.join(folder, "Mechanics"), { recursive: true });
  fs.mkdirSync(path.join(folder, "prompts"));
  for (const [i, name] of [
    "a ball rolls down a slope-0",
    "a ball rolls down a slope-1",
    "ice melts in the sun-0",
  ].entries()) {
    fs.copyFileSync(uniqueMp4(`server-${i}`), path.join(folder, "Mechanics", `${name}.mp4`));
  }
  fs.copyFileSync(mediaFixtures().textAsMp4, path.join(folder, "Mechanics", "a note-0.mp4"));
  fs.writeFileSync(path.join(folder, "prompts", "Mechanics.txt"), "a ball rolls down a slope\nice melts in the sun\n");
}, 60_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(path.dirname(folder), { recursive: true, force: true });
});

describe("the headless import against a server (--server URL with FRAMEJURY_API_KEY)", () => {
  it("imports through the upload, prompt-list and frame-set routes with an API key, and on a second run skips what is done and finishes a video left without frames", async () => {
    const owner = await makeUser();
    const { key } = await createApiKey(prisma, owner.userId, "import");
    const project = await createProject(prisma, owner, { name: "server import" });
    const target = serverTarget(`${server.url}/`, key, project.id);

    const first = await importFolders({ roots: [folder], target });
    expect(first.counts).toEqual({ imported: 3, duplicate: 0, failed: 1, skipped: 0, interrupted: 0 });
    expect(first.files.find((file) => file.relativePath === "Kling/Mechanics/a note-0.mp4")).toMatchObject({
      status: "failed",
      reason: "not_a_video",
    });
    expect(first.files.find((file) => file.kind === "prompt-list")).toMatchObject({
      status: "imported",
      message:
        "prompt list: 2 prompts (dimension-txt); 3 videos match it, 0 of its prompts have no video, 0 videos match no prompt of it",
    });
    const videos = await prisma.video.findMany({
      where: { projectId: project.id },
      include: { frameSets: true },
      orderBy: { relativePath: "asc" },
    });
    expect(
      videos.map((video) => [
        video.relativePath,
        video.status,
        video.model,
        video.matchedPrompt,
        video.createdById,
        video.frameSets.map((set) => set.decoder),
      ]),
    ).toEqual([
      ["Kling/Mechanics/a ball rolls down a slope-0.mp4", "ready", "Kling", true, owner.userId, ["ffmpeg"]],
      ["Kling/Mechanics/a ball rolls down a slope-1.mp4", "ready", "Kling", true, owner.userId, ["ffmpeg"]],
      ["Kling/Mechanics/ice melts in the sun-0.mp4", "ready", "Kling", true, owner.userId, ["ffmpeg"]],
    ]);

    // A video whose frames never arrived (the import stopped between its upload and its frames): the
    // server's "duplicate" answer names it, and the next run extracts its frames.
    await prisma.frameSet.deleteMany({ where: { videoId: videos[2]!.id } });
    await prisma.video.update({ where: { id: videos[2]!.id }, data: { status: "pending_extraction" } });
    const second = await importFolders({ roots: [folder], target });
    expect(second.counts).toEqual({ imported: 1, duplicate: 2, failed: 1, skipped: 0, interrupted: 0 });
    expect(second.files.find((file) => file.status === "imported" && file.kind === "video")).toMatchObject({
      relativePath: "Kling/Mechanics/ice melts in the sun-0.mp4",
      resumed: true,
      videoId: videos[2]!.id,
    });
    expect(await prisma.video.count({ where: { projectId: project.id } })).toBe(3);
    expect(await prisma.frameSet.count({ where: { video: { projectId: project.id } } })).toBe(3);
    // The prompt list the first run stored is not stored again.
    expect(second.files.find((file) => file.kind === "prompt-list")).toMatchObject({
      status: "duplicate",
      message:
        "prompt list: 2 prompts (dimension-txt), already in the project (not stored again); 3 videos match it, 0 of its prompts have no video, 0 videos match no prompt of it",
    });
    expect(await prisma.promptList.count({ where: { projectId: project.id } })).toBe(1);
  }, 120_000);

  it("is refused without a valid key or without the owner's role, storing nothing", async () => {
    const owner = await makeUser();
    const reviewer = await makeUser();
    const project = await createProject(prisma, owner, { name: "server import refused" });
    await prisma.projectMember.create({ data: { projectId: project.id, userId: reviewer.userId, role: "reviewer" } });
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "import")).key;

    const badKey = await importFolders({
      roots: [path.join(folder, "Mechanics", "a ball rolls down a slope-0.mp4")],
      target: serverTarget(server.url, "fj_not_a_key", project.id),
    });
    expect(badKey.files[0]).toMatchObject({ status: "failed", reason: "refused" });
    expect(badKey.files[0]!.message).toMatch(/API key|sign in/i);
    const asReviewer = await importFolders({
      roots: [path.join(folder, "Mechanics", "a ball rolls down a slope-0.mp4")],
      target: serverTarget(server.url, reviewerKey, project.id),
    });
    expect(asReviewer.files[0]).toMatchObject({ status: "failed", reason: "refused" });
    expect(await prisma.video.count({ where: { projectId: project.id } })).toBe(0);
    expect(await prisma.uploadSession.count({ where: { projectId: project.id } })).toBe(0);
  }, 60_000);
});
