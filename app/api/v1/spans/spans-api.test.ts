import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { FRAME_TIMES_QUEUE, runFrameTimesJob } from "@/lib/videos/frame-times-jobs";
import { insertSpans } from "@/lib/spans/span-store";
import type { SpanRecord } from "@/lib/spans/span-types";
import { getStorage } from "@/lib/storage/storage";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { declaredAnswer } from "@/testkit/testing/declared-answer";
import { makeUser } from "@/testkit/testing/fixtures";
import { mediaFixtures } from "@/testkit/testing/media-fixtures";
import { createReadyVideo } from "@/testkit/testing/ready-video";
import { GET as frameTimesRoute } from "../videos/[videoId]/frame-times/route";
import { GET as listRoute, POST as markRoute } from "../videos/[videoId]/spans/route";
import { DELETE as withdrawRoute, GET as spanRoute, PATCH as changeRoute } from "./[spanId]/route";

const APP = "http://localhost:3000";
const CHUNK = 64 * 1024;

let videoId: string;
let unreadableVideoId: string;
let pendingVideoId: string;
let queueId: string;
let judgeSpanId: string;
let keys: { owner: string; reviewer: string; blind: string; viewer: string; stranger: string };

beforeAll(async () => {
  const [owner, reviewer, blind, viewer, stranger] = await Promise.all([
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
  const project = await createProject(prisma, owner, { name: "Spans API" });
  await createProject(prisma, stranger, { name: "Another project" });
  await prisma.projectMember.createMany({
    data: [
      { projectId: project.id, userId: reviewer.userId, role: "reviewer" },
      { projectId: project.id, userId: blind.userId, role: "reviewer" },
      { projectId: project.id, userId: viewer.userId, role: "viewer" },
    ],
  });
  const video = await createReadyVideo(prisma, {
    projectId: project.id,
    relativePath: "good.mp4",
    createdById: owner.userId,
  });
  videoId = video.id;
  await getStorage().put(video.storageKey, fs.readFileSync(mediaFixtures().goodMp4)); // 50 frames at 25 fps
  const unreadable = await createReadyVideo(prisma, {
    projectId: project.id,
    relativePath: "text.mp4",
    createdById: owner.userId,
  });
  unreadableVideoId = unreadable.id;
  await getStorage().put(unreadable.storageKey, fs.readFileSync(mediaFixtures().textAsMp4));
  // A video whose times no worker has read yet.
  pendingVideoId = (
    await createReadyVideo(prisma, { projectId: project.id, relativePath: "pending.mp4", createdById: owner.userId })
  ).id;
  // As a worker does once a video's frames are registered (lib/videos/frame-times-jobs.ts): requests only read them.
  for (const id of [videoId, unreadableVideoId])
    await runFrameTimesJob({ prisma, storage: getStorage() }, { videoId: id });

  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId: project.id, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  const run = await prisma.judgeRun.create({
    data: {
      projectId: project.id,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      createdById: owner.userId,
      status: "done",
    },
  });
  await prisma.$transaction((tx) =>
    insertSpans(
      tx,
      [
        {
          projectId: project.id,
          videoId,
          task: "hallucination",
          label: "s2",
          itemId: "",
          startFrame: 5,
          endFrame: 9,
          startS: 0.2,
          endS: 0.4,
          boxes: [],
          note: "",
          authorKind: "judge",
          authorId: `run:${run.id}`,
          runId: run.id,
        },
      ],
      owner.userId,
    ),
  );
  judgeSpanId = (await prisma.span.findFirstOrThrow({ where: { videoId, authorKind: "judge" } })).id;
  // `blind` is reviewing a blind queue holding the video, not yet submitted.
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId: project.id,
      name: "Blind",
      runId: run.id,
      scope: "video",
      blind: true,
      itemCount: 1,
      createdById: owner.userId,
    },
  });
  queueId = queue.id;
  const item = await prisma.reviewQueueItem.create({ data: { queueId, videoId, position: 0 } });
  await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId, reviewerId: blind.userId } });

  const key = async (userId: string) => (await createApiKey(prisma, userId, "t")).key;
  keys = {
    owner: await key(owner.userId),
    reviewer: await key(reviewer.userId),
    blind: await key(blind.userId),
    viewer: await key(viewer.userId),
    stranger: await key(stranger.userId),
  };
});

const json = (body: unknown) => ({ body: JSON.stringify(body) });
const list = (key: string, query = "") =>
  listRoute(apiRequest(`/api/v1/videos/${videoId}/spans${query}`, key), routeContext({ videoId }));
const mark = (key: string, body: unknown) =>
  markRoute(
    apiRequest(`/api/v1/videos/${videoId}/spans`, key, { method: "POST", ...json(body) }),
    routeContext({ videoId }),
  );
const show = (key: string, spanId: string) =>
  spanRoute(apiRequest(`/api/v1/spans/${spanId}`, key), routeContext({ spanId }));
const change = (key: string, spanId: string, body: unknown) =>
  changeRoute(apiRequest(`/api/v1/spans/${spanId}`, key, { method: "PATCH", ...json(body) }), routeContext({ spanId }));
const withdraw = (key: string, spanId: string, body: unknown) =>
  withdrawRoute(
    apiRequest(`/api/v1/spans/${spanId}`, key, { method: "DELETE", ...json(body) }),
    routeContext({ spanId }),
  );
const frameTimes = (key: string, id = videoId) =>
  frameTimesRoute(apiRequest(`/api/v1/videos/${id}/frame-times`, key), routeContext({ videoId: id }));

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("GET /api/v1/videos/{videoId}/frame-times", () => {
  it("each frame's time, read from the stored file", async () => {
    const response = await frameTimes(keys.viewer);
    expect(response.status).toBe(200);
    const times = (await response.json()) as { timesS: number[]; endS: number; variable: boolean };
    expect(times.timesS).toHaveLength(50);
    expect(times.timesS[1]).toBeCloseTo(0.04, 6);
    expect(times.endS).toBeCloseTo(2, 6);
    expect(times.variable).toBe(false);
    expect(declaredAnswer(frameTimesRoute, 200, times)).toEqual(times);
  });

  it("before a worker has read them: 202 {pending} (no error), and the video's job is queued", async () => {
    const response = await frameTimes(keys.viewer, pendingVideoId);
    expect(response.status).toBe(202);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const pending = await response.json();
    expect(pending).toMatchObject({ pending: true, message: expect.stringMatching(/not yet computed/) });
    expect(declaredAnswer(frameTimesRoute, 202, pending)).toEqual(pending);
    const queued = await prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM pgboss.job WHERE name = ${FRAME_TIMES_QUEUE} AND data->>'videoId' = ${pendingVideoId}`;
    expect(Number(queued[0]!.n)).toBeGreaterThan(0);
  });

  it("a file whose frames cannot be read: its job names why and keeps it; the GET answers that reason (422)", async () => {
    expect(await runFrameTimesJob({ prisma, storage: getStorage() }, { videoId: unreadableVideoId })).toEqual({
      unreadable: expect.stringMatching(/frames cannot be read/),
    });
    const response = await frameTimes(keys.viewer, unreadableVideoId);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).message).toMatch(/frames cannot be read/);
  });
});

describe("/api/v1/videos/{videoId}/spans and /api/v1/spans/{spanId}", () => {
  it("a reviewer marks (201), changes at a version (200, then a stale one 409 with the current), reads the history, and withdraws", async () => {
    const created = await mark(keys.reviewer, { task: "hallucination", label: "s1", startS: 0.1, endS: 0.3 });
    expect(created.status).toBe(201);
    const span = (await created.json()) as SpanRecord;
    expect(span).toMatchObject({ startFrame: 2, endFrame: 7, version: 1, authorKind: "reviewer" });
    // Each answer is what the route's declared schema says, field for field (a field it does not declare is stripped).
    expect(declaredAnswer(markRoute, 201, span)).toEqual(span);

    const changed = await change(keys.reviewer, span.id, { expectedVersion: 1, note: "hand" });
    expect(changed.status).toBe(200);
    const changedSpan = await changed.json();
    expect(changedSpan).toMatchObject({ version: 2, note: "hand" });
    expect(declaredAnswer(changeRoute, 200, changedSpan)).toEqual(changedSpan);
    const stale = await change(keys.reviewer, span.id, { expectedVersion: 1, note: "old tab" });
    expect(stale.status).toBe(409);
    expect(
      ((await stale.json()) as { error: { details: { current: SpanRecord } } }).error.details.current,
    ).toMatchObject({ version: 2, note: "hand" });

    const shown = await show(keys.reviewer, span.id);
    expect(shown.status).toBe(200);
    const shownBody = await shown.json();
    expect(declaredAnswer(spanRoute, 200, shownBody)).toEqual(shownBody);
    const { history } = shownBody as { history: { version: number }[] };
    expect(history.map((h) => h.version)).toEqual([1, 2]);

    expect((await withdraw(keys.reviewer, span.id, {})).status).toBe(400);
    const withdrawn = await withdraw(keys.reviewer, span.id, { expectedVersion: 2 });
    expect(withdrawn.status).toBe(200);
    const withdrawnSpan = await withdrawn.json();
    expect(declaredAnswer(withdrawRoute, 200, withdrawnSpan)).toEqual(withdrawnSpan);
    const listedBody = await (await list(keys.reviewer)).json();
    expect(declaredAnswer(listRoute, 200, listedBody)).toEqual(listedBody);
    const listed = listedBody as { spans: SpanRecord[] };
    expect(listed.spans.map((s) => s.id)).not.toContain(span.id);
  });

  it("bad input is a 400 naming the reason", async () => {
    const cases: [unknown, RegExp][] = [
      [{ task: "hallucination", label: "s1", startFrame: 45, endFrame: 50 }, /outside the video/],
      [{ task: "hallucination", label: "s1", startFrame: 9, endFrame: 3 }, /before it starts/],
      [{ task: "hallucination", label: "nope", startFrame: 0, endFrame: 1 }, /not a label/],
      [{ task: "__proto__", label: "s1", startFrame: 0, endFrame: 1 }, /not a task/],
      [{ task: "hallucination", label: "s1", startFrame: 0 }, /both startFrame and endFrame/],
      [{ task: "hallucination", label: "s1" }, /frames .* or its seconds/],
      [{ task: "hallucination", label: "s1", startFrame: 0, endFrame: 1, notes: "misspelt" }, /notes/],
    ];
    for (const [body, reason] of cases) {
      const response = await mark(keys.reviewer, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).message, JSON.stringify(body)).toMatch(reason);
    }
    const notJson = await markRoute(
      apiRequest(`/api/v1/videos/${videoId}/spans`, keys.reviewer, { method: "POST", body: "{not json" }),
      routeContext({ videoId }),
    );
    expect(notJson.status).toBe(400);
  });

  it("a viewer may read but not mark (403)", async () => {
    expect((await list(keys.viewer)).status).toBe(200);
    expect((await mark(keys.viewer, { task: "hallucination", label: "s1", startFrame: 0, endFrame: 1 })).status).toBe(
      403,
    );
  });

  it("signed out is a 401 on every route", async () => {
    const anonymous = (path: string, method = "GET", body?: unknown) =>
      new Request(`${APP}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const spanId = judgeSpanId;
    const answers = [
      await listRoute(anonymous(`/api/v1/videos/${videoId}/spans`), routeContext({ videoId })),
      await markRoute(
        anonymous(`/api/v1/videos/${videoId}/spans`, "POST", { task: "hallucination", label: "s1" }),
        routeContext({ videoId }),
      ),
      await frameTimesRoute(anonymous(`/api/v1/videos/${videoId}/frame-times`), routeContext({ videoId })),
      await spanRoute(anonymous(`/api/v1/spans/${spanId}`), routeContext({ spanId })),
      await changeRoute(
        anonymous(`/api/v1/spans/${spanId}`, "PATCH", { expectedVersion: 1 }),
        routeContext({ spanId }),
      ),
      await withdrawRoute(
        anonymous(`/api/v1/spans/${spanId}`, "DELETE", { expectedVersion: 1 }),
        routeContext({ spanId }),
      ),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it("a member of another project gets the same 404 as for an unknown id, on every route", async () => {
    const k = keys.stranger;
    const answers = [
      await list(k),
      await mark(k, { task: "hallucination", label: "s1", startFrame: 0, endFrame: 1 }),
      await frameTimes(k),
      await show(k, judgeSpanId),
      await change(k, judgeSpanId, { expectedVersion: 1, note: "x" }),
      await withdraw(k, judgeSpanId, { expectedVersion: 1 }),
      await show(k, "no-such-span"),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(await prisma.span.findUniqueOrThrow({ where: { id: judgeSpanId } })).toMatchObject({ version: 1 });
  });

  it("a judge's span cannot be changed or withdrawn by a reviewer (404)", async () => {
    expect((await change(keys.reviewer, judgeSpanId, { expectedVersion: 1, note: "x" })).status).toBe(404);
    expect((await withdraw(keys.owner, judgeSpanId, { expectedVersion: 1 })).status).toBe(404);
  });
});

describe("blind review", () => {
  it("a reviewer reviewing the video blind sees only their own spans; the judge's and others' stay hidden", async () => {
    const own = (await (
      await mark(keys.blind, { task: "hallucination", label: "s3", startFrame: 20, endFrame: 21 })
    ).json()) as SpanRecord;
    await mark(keys.reviewer, { task: "hallucination", label: "s4", startFrame: 30, endFrame: 31 });

    const blindList = (await (await list(keys.blind)).json()) as { spans: SpanRecord[]; blind: boolean };
    expect(blindList.blind).toBe(true);
    expect(blindList.spans.map((s) => s.id)).toEqual([own.id]);
    expect((await show(keys.blind, judgeSpanId)).status).toBe(404);
    expect((await show(keys.blind, own.id)).status).toBe(200);

    const open = (await (await list(keys.reviewer, "?task=hallucination")).json()) as {
      spans: SpanRecord[];
      blind: boolean;
    };
    expect(open.blind).toBe(false);
    expect(open.spans.map((s) => s.authorKind)).toContain("judge");
    expect(open.spans.map((s) => s.id)).toContain(own.id);
  });
});

/** A chunked body four times the limit that counts the bytes the server pulled from it. */
function largeBody(limit: number) {
  const counter = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= 4 * limit) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

describe("request bodies are bounded", () => {
  const routes = [
    ["POST", () => `/api/v1/videos/${videoId}/spans`, markRoute, () => ({ videoId })],
    ["PATCH", () => `/api/v1/spans/${judgeSpanId}`, changeRoute, () => ({ spanId: judgeSpanId })],
    ["DELETE", () => `/api/v1/spans/${judgeSpanId}`, withdrawRoute, () => ({ spanId: judgeSpanId })],
  ] as const;
  for (const [method, path, handler, params] of routes) {
    it(`${method}: a declared length over the limit is a 413 before the body is read; a chunked one is cut off`, async () => {
      const limit = (handler as { apiRoute?: { body?: { maxBytes?: number } } }).apiRoute?.body?.maxBytes ?? 4 << 20;
      const declared = largeBody(limit);
      const request = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
        new Request(`${APP}${path()}`, {
          method,
          headers: { authorization: `Bearer ${keys.reviewer}`, "content-type": "application/json", ...headers },
          body,
          duplex: "half",
        } as RequestInit);
      const byLength = await (handler as (r: Request, c: unknown) => Promise<Response>)(
        request(declared.stream, { "content-length": String(300 * 1024 * 1024) }),
        routeContext(params()),
      );
      expect(byLength.status).toBe(413);
      expect((await errorOf(byLength)).code).toBe("too_large");
      expect(declared.counter.pulled).toBeLessThanOrEqual(CHUNK);

      const chunked = largeBody(limit);
      const byCount = await (handler as (r: Request, c: unknown) => Promise<Response>)(
        request(chunked.stream, {}),
        routeContext(params()),
      );
      expect(byCount.status).toBe(413);
      expect(chunked.counter.pulled).toBeLessThanOrEqual(limit + 3 * CHUNK);
    });
  }
});
