/**
 * The timeline's spans beside the run chosen on the video page: the judge spans of that run only (another run's stay
 * out), everyone else's spans, and the frame set that run judged the video with (not the video's latest).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as videoSpansRoute } from "@/app/api/v1/videos/[videoId]/spans/route";
import type { Actor } from "../auth/actor";
import { createApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
import { apiRequest, routeContext } from "../../testkit/testing/api-request";
import { makeUser } from "../../testkit/testing/fixtures";
import { insertEndpoint, insertFinishedRun, insertFrameSet, insertProject } from "../../testkit/testing/raw-rows";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { videoSpansBesideRun } from "./run-span-view";
import { insertSpans, type NewSpan } from "./span-store";
import { judgeAuthorId } from "./span-types";

let owner: Actor;
let projectId: string;
let videoId: string;
let firstRun: string;
let secondRun: string;

const span = (label: string, frames: [number, number], author: Partial<NewSpan>): NewSpan => ({
  projectId,
  videoId,
  task: "hallucination",
  label,
  itemId: "",
  startFrame: frames[0],
  endFrame: frames[1],
  startS: frames[0] * 0.04,
  endS: (frames[1] + 1) * 0.04,
  boxes: [],
  note: "",
  authorKind: "reviewer",
  authorId: owner.userId,
  ...author,
});

beforeAll(async () => {
  owner = await makeUser();
  projectId = await insertProject(prisma, "Spans beside a run", owner.userId);
  videoId = (await createReadyVideo(prisma, { projectId, relativePath: "a.mp4", createdById: owner.userId })).id;
  const endpointId = await insertEndpoint(prisma, {
    projectId,
    name: "stub",
    baseUrl: "http://stub",
    model: "m",
    createdById: owner.userId,
  });
  const run = () =>
    insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: { name: "stub", model: "m" },
    });
  firstRun = await run();
  secondRun = await run();
  // The first run judged the key frames of an older frame set; the second, a newer uniform one (the video's latest).
  for (const [id, mode] of [
    [`${videoId}-keyframes`, "keyframes"],
    [`${videoId}-uniform`, "uniform"],
  ] as const)
    await insertFrameSet(prisma, {
      id,
      videoId,
      identity: id,
      parameters: {},
      mode,
      frameCount: 3,
      keyFrameCount: 3,
      createdById: owner.userId,
    });
  await prisma.runVideo.createMany({
    data: [
      { runId: firstRun, videoId, frameSetId: `${videoId}-keyframes`, status: "done" },
      { runId: secondRun, videoId, frameSetId: `${videoId}-uniform`, status: "done" },
    ],
  });
  await prisma.$transaction((tx) =>
    insertSpans(
      tx,
      [
        span("s8", [0, 0], { authorKind: "judge", authorId: judgeAuthorId(firstRun), runId: firstRun }),
        span("d2", [10, 20], { authorKind: "judge", authorId: judgeAuthorId(firstRun), runId: firstRun }),
        span("s8", [0, 0], { authorKind: "judge", authorId: judgeAuthorId(secondRun), runId: secondRun }),
        span("s8", [1, 3], {}),
        span("s8", [2, 2], { authorKind: "gold", authorId: "gold" }),
      ],
      owner.userId,
    ),
  );
});

describe("a video's spans beside the chosen run", () => {
  it("keeps that run's judge spans and everyone else's, with the frame set that run judged", async () => {
    const view = await videoSpansBesideRun(prisma, videoId, { task: "hallucination", runId: firstRun });
    expect(view.frameSetId).toBe(`${videoId}-keyframes`);
    expect(view.spans.map((s) => [s.authorKind, s.runId, s.label, s.startFrame])).toEqual([
      ["judge", firstRun, "s8", 0],
      ["reviewer", null, "s8", 1],
      ["gold", null, "s8", 2],
      ["judge", firstRun, "d2", 10],
    ]);
    const other = await videoSpansBesideRun(prisma, videoId, { runId: secondRun });
    expect(other.frameSetId).toBe(`${videoId}-uniform`);
    expect(other.spans.filter((s) => s.authorKind === "judge").map((s) => s.runId)).toEqual([secondRun]);
  });

  it("has no frame set and no judge spans for a run that did not judge the video", async () => {
    const view = await videoSpansBesideRun(prisma, videoId, { runId: "no-such-run" });
    expect(view.frameSetId).toBeNull();
    expect(view.spans.map((s) => s.authorKind)).toEqual(["reviewer", "gold"]);
  });

  it("answers the route's runId with that run's judge spans and frame set", async () => {
    const key = (await createApiKey(prisma, owner.userId, "t")).key;
    const response = await videoSpansRoute(
      apiRequest(`/api/v1/videos/${videoId}/spans?task=hallucination&runId=${secondRun}`, key),
      routeContext({ videoId }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      spans: { authorKind: string; runId: string | null }[];
      frameSetId: string;
    };
    expect(body.frameSetId).toBe(`${videoId}-uniform`);
    expect(body.spans.filter((s) => s.authorKind === "judge").map((s) => s.runId)).toEqual([secondRun]);
    const every = await videoSpansRoute(
      apiRequest(`/api/v1/videos/${videoId}/spans?task=hallucination`, key),
      routeContext({ videoId }),
    );
    expect(((await every.json()) as { spans: unknown[] }).spans).toHaveLength(5);
  });
});
