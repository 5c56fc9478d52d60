import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { AppError } from "../errors";
import { createProject } from "../projects/projects";
import { getStorage } from "../storage/storage";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { makeUser } from "../../testkit/testing/fixtures";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import {
  createSpan,
  insertSpans,
  listVideoSpans,
  SpanConflictError,
  spanHistory,
  updateSpan,
  withdrawSpan,
} from "./span-store";
import { PROJECT_SPAN_TASK, type SpanFields, type SpanRecord } from "./span-types";
import { spanInputSchema, spanUpdateSchema } from "./span-validation";

/** The number of frames a span covers. */
function spanLength(span: Pick<SpanFields, "startFrame" | "endFrame">): number {
  return span.endFrame - span.startFrame + 1;
}

const deps = () => ({ prisma, storage: getStorage() });
const catalogue = () => builtInCatalogue().declarations();
const TASK = "hallucination";

let owner: Actor;
let adjudicator: Actor;
let reviewer: Actor;
let other: Actor;
let viewer: Actor;
let outsider: Actor;
let video: { id: string; projectId: string; storageKey: string };

/** 100 frames at 25 fps: frame i at i × 0.04 s; the video ends at 4 s. No file: its frame times are stored. */
beforeAll(async () => {
  [owner, adjudicator, reviewer, other, viewer, outsider] = await Promise.all([
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
  const project = await createProject(prisma, owner, { name: "Span store" });
  await prisma.projectMember.createMany({
    data: [
      { projectId: project.id, userId: adjudicator.userId, role: "owner" },
      { projectId: project.id, userId: reviewer.userId, role: "reviewer" },
      { projectId: project.id, userId: other.userId, role: "reviewer" },
      { projectId: project.id, userId: viewer.userId, role: "viewer" },
    ],
  });
  await prisma.project.update({
    where: { id: project.id },
    data: { spanLabels: [{ id: "glitch", label: "Glitch", definition: "" }] },
  });
  video = await createReadyVideo(prisma, { projectId: project.id, relativePath: "a.mp4", createdById: owner.userId });
  await prisma.videoFrameTimes.create({
    data: { videoId: video.id, timesS: Array.from({ length: 100 }, (_, i) => i * 0.04), endS: 4, variable: false },
  });
});

/** The actor's checked access to the video's project for what the span routes name (`scores.review`). */
const reviewAccess = (actor: Actor) => projectAccess(prisma, actor, video.projectId, "scores.review");

async function mark(actor: Actor, input: Record<string, unknown>) {
  return createSpan(
    deps(),
    await reviewAccess(actor),
    video,
    spanInputSchema.parse({ task: TASK, label: "s1", ...input }),
    {
      catalogue: catalogue(),
    },
  );
}

async function change(actor: Actor, spanId: string, update: Record<string, unknown>) {
  return updateSpan(deps(), await reviewAccess(actor), spanId, spanUpdateSchema.parse(update), catalogue());
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("marking spans", () => {
  it("by frames: frames inclusive, seconds from the stored frame times, the caller as author, history version 1", async () => {
    const span = await mark(reviewer, { startFrame: 10, endFrame: 19, note: "a sixth finger" });
    expect(span).toMatchObject({
      videoId: video.id,
      task: TASK,
      label: "s1",
      itemId: "",
      startFrame: 10,
      endFrame: 19,
      note: "a sixth finger",
      authorKind: "reviewer",
      authorId: reviewer.userId,
      version: 1,
      queueId: null,
    });
    expect(span.startS).toBeCloseTo(0.4, 9);
    expect(span.endS).toBeCloseTo(0.8, 9);
    expect(spanLength(span)).toBe(10);
    const history = await spanHistory(prisma, span.id);
    expect(history.map((h) => [h.version, h.changedBy])).toEqual([[1, reviewer.userId]]);
    expect(history[0]!.after).toMatchObject({ label: "s1", startFrame: 10, endFrame: 19 });
  });

  it("by seconds: the frames on screen from start to before the end; a point in time is one frame", async () => {
    const span = await mark(reviewer, { startS: 0.1, endS: 0.48 });
    expect(span).toMatchObject({ startFrame: 2, endFrame: 11 });
    expect(span.startS).toBeCloseTo(0.08, 9);
    expect(span.endS).toBeCloseTo(0.48, 9);
    const point = await mark(reviewer, { startS: 1.01, endS: 1.01 });
    expect(point).toMatchObject({ startFrame: 25, endFrame: 25 });
    // A player paused at the end reports the video's end: the last frame is on screen.
    expect(await mark(reviewer, { startS: 4, endS: 4 })).toMatchObject({ startFrame: 99, endFrame: 99 });
  });

  it("boxes are kept sorted by frame; the project's own labels are a task of their own", async () => {
    const span = await mark(reviewer, {
      startFrame: 0,
      endFrame: 9,
      boxes: [
        { frame: 9, x: 0.5, y: 0.5, w: 0.2, h: 0.2 },
        { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2, enabled: true },
      ],
    });
    expect(span.boxes.map((b) => [b.frame, b.enabled])).toEqual([
      [0, true],
      [9, true],
    ]);
    const own = await mark(reviewer, { task: PROJECT_SPAN_TASK, label: "glitch", startFrame: 3, endFrame: 3 });
    expect(own).toMatchObject({ task: PROJECT_SPAN_TASK, label: "glitch" });
  });

  it("a viewer may not mark spans (403); a non-member is told nothing (404)", async () => {
    expect((await failure(mark(viewer, { startFrame: 0, endFrame: 1 }))).status).toBe(403);
    expect((await failure(mark(outsider, { startFrame: 0, endFrame: 1 }))).status).toBe(404);
  });
});

describe("bad spans are a 400 naming the reason, and nothing is saved", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["a frame past the video's last", { startFrame: 95, endFrame: 100 }, /outside the video \(frames 0–99\)/],
    ["seconds past the video's end", { startS: 3.9, endS: 4.5 }, /outside the video \(0–4 s\)/],
    ["seconds starting after the video's end", { startS: 4.1, endS: 4.1 }, /outside the video/],
    ["end before start (frames)", { startFrame: 20, endFrame: 10 }, /ends \(frame 10\) before it starts \(frame 20\)/],
    ["end before start (seconds)", { startS: 2, endS: 1 }, /ends \(1 s\) before it starts \(2 s\)/],
    ["an unknown label", { label: "s99", startFrame: 0, endFrame: 1 }, /"s99" is not a label of hallucination/],
    ["an unknown task", { task: "no_such_task", startFrame: 0, endFrame: 1 }, /"no_such_task" is not a task/],
    ["a label of the project's list under a task", { label: "glitch", startFrame: 0, endFrame: 1 }, /not a label/],
    [
      "a box outside the frame",
      { startFrame: 0, endFrame: 5, boxes: [{ frame: 2, x: 0.9, y: 0, w: 0.2, h: 0.1 }] },
      /box on frame 2 is outside the frame/,
    ],
    [
      "a box at a negative position",
      { startFrame: 0, endFrame: 5, boxes: [{ frame: 2, x: -0.1, y: 0, w: 0.2, h: 0.1 }] },
      /outside the frame/,
    ],
    [
      "a box outside the span",
      { startFrame: 0, endFrame: 5, boxes: [{ frame: 6, x: 0, y: 0, w: 0.2, h: 0.1 }] },
      /box on frame 6 is outside the span \(frames 0–5\)/,
    ],
    [
      "a box without area",
      { startFrame: 0, endFrame: 5, boxes: [{ frame: 1, x: 0, y: 0, w: 0, h: 0.1 }] },
      /box on frame 1 has no area/,
    ],
    [
      "two boxes on one frame",
      {
        startFrame: 0,
        endFrame: 5,
        boxes: [
          { frame: 1, x: 0, y: 0, w: 0.2, h: 0.1 },
          { frame: 1, x: 0.5, y: 0, w: 0.2, h: 0.1 },
        ],
      },
      /Frame 1 has two boxes/,
    ],
  ];
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    cases.push([`"${name}" as a label`, { label: name, startFrame: 0, endFrame: 1 }, /is not a label of/]);
    cases.push([`"${name}" as a task`, { task: name, startFrame: 0, endFrame: 1 }, /is not a task of this project/]);
    cases.push([
      `"${name}" as a label of the project's list`,
      { task: PROJECT_SPAN_TASK, label: name, startFrame: 0, endFrame: 1 },
      /is not a label of project/,
    ]);
  }

  for (const [what, input, reason] of cases)
    it(what, async () => {
      const before = await prisma.span.count({ where: { videoId: video.id } });
      const error = await failure(mark(reviewer, input));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(reason);
      expect(await prisma.span.count({ where: { videoId: video.id } })).toBe(before);
    });

  it("a bad change is refused the same way and the span stays as it was", async () => {
    const span = await mark(reviewer, { startFrame: 40, endFrame: 44 });
    const error = await failure(change(reviewer, span.id, { expectedVersion: 1, endFrame: 100 }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/outside the video/);
    expect((await failure(change(reviewer, span.id, { expectedVersion: 1, label: "__proto__" }))).status).toBe(400);
    const row = await prisma.span.findUniqueOrThrow({ where: { id: span.id } });
    expect(row).toMatchObject({ endFrame: 44, label: "s1", version: 1 });
  });
});

describe("changing and withdrawing", () => {
  it("a change names the version it edits; a stale version is a 409 carrying the current span", async () => {
    const span = await mark(reviewer, { startFrame: 50, endFrame: 59 });
    const changed = await change(reviewer, span.id, { expectedVersion: 1, endFrame: 64, label: "s2" });
    expect(changed).toMatchObject({ version: 2, startFrame: 50, endFrame: 64, label: "s2" });
    expect(changed.endS).toBeCloseTo(2.6, 9);

    const stale = await failure(change(reviewer, span.id, { expectedVersion: 1, note: "from an old tab" }));
    expect(stale).toBeInstanceOf(SpanConflictError);
    expect(stale.status).toBe(409);
    const current = (stale.details as { current: SpanRecord }).current;
    expect(current).toMatchObject({ id: span.id, version: 2, endFrame: 64, note: "" });
  });

  it("two saves of one version at once (two tabs): one wins, the other gets a 409 with the winner's span", async () => {
    const span = await mark(reviewer, { startFrame: 70, endFrame: 71 });
    const results = await Promise.allSettled([
      change(reviewer, span.id, { expectedVersion: 1, note: "first" }),
      change(reviewer, span.id, { expectedVersion: 1, note: "second" }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<SpanRecord>).value;
    const conflict = (lost[0] as PromiseRejectedResult).reason as AppError;
    expect(conflict.status).toBe(409);
    expect((conflict.details as { current: SpanRecord }).current).toMatchObject({ version: 2, note: winner.note });
    expect(await prisma.spanHistory.count({ where: { spanId: span.id } })).toBe(2);
  });

  it("two adjudicators saving the same gold span at once: one wins, the other 409", async () => {
    const [goldId] = await prisma.$transaction(async (tx) => {
      await insertSpans(
        tx,
        [
          {
            projectId: video.projectId,
            videoId: video.id,
            task: TASK,
            label: "s3",
            itemId: "",
            startFrame: 5,
            endFrame: 6,
            startS: 0.2,
            endS: 0.28,
            boxes: [],
            note: "",
            authorKind: "gold",
            authorId: "gold",
          },
        ],
        owner.userId,
      );
      return (await tx.span.findMany({ where: { videoId: video.id, authorKind: "gold" }, select: { id: true } })).map(
        (s) => s.id,
      );
    });
    const results = await Promise.allSettled([
      change(owner, goldId!, { expectedVersion: 1, endFrame: 8 }),
      change(adjudicator, goldId!, { expectedVersion: 1, endFrame: 9 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as AppError).status).toBe(409);
    // A reviewer cannot change gold spans.
    expect((await failure(change(reviewer, goldId!, { expectedVersion: 2, endFrame: 7 }))).status).toBe(403);
  });

  it("someone else's span is a 404 to change or withdraw, and is left as it was", async () => {
    const span = await mark(reviewer, { startFrame: 80, endFrame: 81 });
    expect((await failure(change(other, span.id, { expectedVersion: 1, note: "mine now" }))).status).toBe(404);
    expect((await failure(withdrawSpan(deps(), await reviewAccess(other), span.id, 1))).status).toBe(404);
    expect((await failure(change(outsider, span.id, { expectedVersion: 1, note: "x" }))).status).toBe(404);
    expect((await failure(change(reviewer, "no-such-span", { expectedVersion: 1, note: "x" }))).status).toBe(404);
    // The span's own author, through an access to another project: neither the span nor its video is found there.
    const elsewhere = await createProject(prisma, reviewer, { name: "Another project" });
    const there = await projectAccess(prisma, reviewer, elsewhere.id, "scores.review");
    const update = spanUpdateSchema.parse({ expectedVersion: 1, note: "x" });
    expect((await failure(updateSpan(deps(), there, span.id, update, catalogue()))).status).toBe(404);
    expect((await failure(withdrawSpan(deps(), there, span.id, 1))).status).toBe(404);
    const input = spanInputSchema.parse({ task: TASK, label: "s1", startFrame: 0, endFrame: 1 });
    expect((await failure(createSpan(deps(), there, video, input, { catalogue: catalogue() }))).status).toBe(404);
    expect(await prisma.span.findUniqueOrThrow({ where: { id: span.id } })).toMatchObject({ version: 1, note: "" });
  });

  it("withdrawing at the version seen: it counts nowhere, cannot be changed, and its history stays", async () => {
    const span = await mark(reviewer, { startFrame: 90, endFrame: 95 });
    await change(reviewer, span.id, { expectedVersion: 1, note: "v2" });
    expect((await failure(withdrawSpan(deps(), await reviewAccess(reviewer), span.id, 1))).status).toBe(409);
    const withdrawn = await withdrawSpan(deps(), await reviewAccess(reviewer), span.id, 2);
    expect(withdrawn.version).toBe(3);
    expect((await listVideoSpans(prisma, video.id)).map((s) => s.id)).not.toContain(span.id);
    expect((await failure(change(reviewer, span.id, { expectedVersion: 3, note: "again" }))).status).toBe(404);
    expect((await failure(withdrawSpan(deps(), await reviewAccess(reviewer), span.id, 3))).status).toBe(404);

    const history = await spanHistory(prisma, span.id);
    expect(history.map((h) => h.version)).toEqual([1, 2, 3]);
    expect(history.map((h) => h.changedBy)).toEqual([reviewer.userId, reviewer.userId, reviewer.userId]);
    expect(history[1]!.before).toMatchObject({ startFrame: 90, endFrame: 95, note: "" });
    expect(history[1]!.after).toMatchObject({ note: "v2" });
    expect(history[2]!.after).toEqual({ withdrawn: true });
  });
});

describe("listVideoSpans", () => {
  it("in time order, narrowed to one task on request", async () => {
    const spans = await listVideoSpans(prisma, video.id);
    const starts = spans.map((s) => s.startFrame);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(spans.some((s) => s.task === PROJECT_SPAN_TASK)).toBe(true);
    const own = await listVideoSpans(prisma, video.id, { task: PROJECT_SPAN_TASK });
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((s) => s.task === PROJECT_SPAN_TASK)).toBe(true);
  });
});
