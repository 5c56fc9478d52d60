import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/projects/[projectId]/export/spans/route";
import { createApiKey } from "../../auth/api-keys";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { apiRequest, routeContext } from "../../../testkit/testing/api-request";
import { makeUser } from "../../../testkit/testing/fixtures";
import { insertEndpoint, insertFinishedRun } from "../../../testkit/testing/raw-rows";

/*
 * Two videos: the reviewer reviews `blind` blind, `open` not. The judge marked "hand" on the blind video only; the
 * reviewer marked "face" on the open one. Whatever the reviewer's filter, the export answers them alike.
 */
let ownerKey: string;
let reviewerKey: string;
let projectId: string;
let blindVideo: string;
let runId: string;

async function video(ownerId: string, name: string): Promise<string> {
  const made = await prisma.video.create({
    data: {
      projectId,
      sha256: `span-export-blind-${name}`.padEnd(64, "0"),
      sizeBytes: BigInt(1),
      fileName: `${name}.mp4`,
      relativePath: `M/${name}.mp4`,
      storageKey: `k/span-export-blind-${name}.mp4`,
      contentType: "video/mp4",
      status: "ready",
      createdById: ownerId,
    },
  });
  return made.id;
}

beforeAll(async () => {
  const [owner, reviewer] = [await makeUser(), await makeUser()];
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
  reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Span export blind" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  blindVideo = await video(owner.userId, "blind");
  const openVideo = await video(owner.userId, "open");
  const endpointId = await insertEndpoint(prisma, {
    projectId,
    name: "e",
    baseUrl: "http://e",
    model: "m",
    createdById: owner.userId,
  });
  runId = await insertFinishedRun(prisma, {
    projectId,
    pipeline: "hallucination",
    endpointId,
    createdById: owner.userId,
    endpointSnapshot: {},
  });
  const span = { projectId, task: "project", startFrame: 0, endFrame: 3, startS: 0, endS: 0.5 };
  await prisma.span.create({
    data: { ...span, videoId: blindVideo, label: "hand", authorKind: "judge", authorId: `run:${runId}`, runId },
  });
  await prisma.span.create({
    data: { ...span, videoId: openVideo, label: "face", authorKind: "reviewer", authorId: reviewer.userId },
  });
  const queue = await prisma.reviewQueue.create({
    data: { projectId, name: "blind", runId, scope: "verdict", blind: true, itemCount: 1, createdById: owner.userId },
  });
  const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: blindVideo, position: 0 } });
  await prisma.reviewQueueAssignment.create({
    data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
  });
});

async function download(key: string, query: string) {
  const response = await exportRoute(
    apiRequest(`/api/v1/projects/${projectId}/export/spans?${query}`, key),
    routeContext({ projectId }),
  );
  return { status: response.status, text: await response.text() };
}

describe("the span export for a caller reviewing blind", () => {
  it("answers alike whether the filter matches the judge's span on the blind video or not", async () => {
    const queries = [
      "format=csv&label=hand",
      "format=csv&label=nothing-marks-this",
      "format=csv&label=face",
      `format=csv&author=run:${runId}`,
      "format=csv&author=gold",
      "format=jsonl",
    ];
    const answers = await Promise.all(queries.map((q) => download(reviewerKey, q)));
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(JSON.parse(answer.text).error.details).toEqual(JSON.parse(answers[0]!.text).error.details);
    }
    expect(JSON.parse(answers[0]!.text).error.details.withheld.blindVideos).toBe(1);
    const owner = await download(ownerKey, "format=csv&label=hand");
    expect(owner.status).toBe(200);
    expect(owner.text).toContain(blindVideo);
  });
});
