/**
 * The leaderboard pages rendered on the server (react-dom/server, on PostgreSQL): an owner reviewing one of the run's
 * videos in a blind queue gets the withheld notice naming the queue and the items left, and no board, table or
 * download, whichever metric is asked for (even one no video has a value of); a viewer gets the whole board, opened on
 * a metric some video has a value of.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { seedFinishedRun } from "@/testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";

const page = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/app/_server/actor", async () => {
  const { projectAccess } = await import("@/lib/authz/permissions");
  const { prisma: db } = await import("@/lib/db/prisma");
  return {
    // As the real one: the actor's checked access to the page's project.
    requirePageProjectAccess: async (projectId: string) => {
      const access = await projectAccess(db, page.actor!, projectId, "project.view");
      return { actor: page.actor, role: access.role, access };
    },
  };
});
const { default: RunLeaderboardPage } = await import("@/app/(app)/projects/[projectId]/runs/[runId]/leaderboard/page");

let owner: Actor;
let viewer: Actor;
let projectId: string;
let runId: string;

beforeAll(async () => {
  [owner, viewer] = await Promise.all([makeUser(), makeUser()]);
  let videoIds: string[];
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 4,
    keyFrames: 1,
    name: "Withheld page",
  }));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({ where: { id }, data: { model: i < 2 ? "GenA" : "GenB", prompt: `Prompt ${i % 2}` } });
  ({ runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: () => [],
    outcome: (v) => ({ verdict: v % 2 === 0, overall: [80, 60, 40, 20][v]! }),
  }));
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId,
      name: "Blind overall",
      runId,
      scope: "verdict",
      blind: true,
      itemCount: 2,
      createdById: owner.userId,
    },
  });
  for (const [position, videoId] of videoIds.slice(2).entries())
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position } });
  const first = await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId: queue.id, position: 0 } });
  await prisma.reviewQueueAssignment.create({
    data: { itemId: first.id, queueId: queue.id, reviewerId: owner.userId },
  });
});

async function render(actor: Actor, query: Record<string, string> = {}, run = runId) {
  page.actor = actor;
  const element = await RunLeaderboardPage({
    params: Promise.resolve({ projectId, runId: run }),
    searchParams: Promise.resolve({ samples: "200", ...query }),
  });
  return renderToStaticMarkup(element);
}

describe("a run's leaderboard page", () => {
  it("shows an owner reviewing a video of the run blind why the board is withheld, and no board", async () => {
    const html = await render(owner);
    expect(html).toContain('data-testid="withheld"');
    expect(html).toContain(
      "This run&#x27;s leaderboard is hidden while you review &quot;Blind overall&quot; blind: 2 items left.",
    );
    expect(html).toContain("Blind overall: 2 items left");
    expect(html).not.toContain('data-testid="leaderboard-row"');
    expect(html).not.toContain("GenA");
  });

  it("shows a viewer the whole board", async () => {
    const html = await render(viewer);
    expect(html).not.toContain('data-testid="withheld"');
    expect(html).toContain('data-testid="leaderboard-row"');
    expect(html).toContain("GenA");
    expect(html).toContain("GenB");
  });

  it("withholds the board from that owner on a metric no video has a value of too, instead of an empty board", async () => {
    expect(await prisma.runMetric.count({ where: { runId, metric: "I" } })).toBe(0);
    const html = await render(owner, { metric: "I" });
    expect(html).toContain('data-testid="withheld"');
    expect(html).not.toContain("No model to rank");
    expect(html).not.toContain('data-testid="leaderboard-form"');
  });

  it("opens on the headline metric among those some video of the run has a value of, and lists those first", async () => {
    const videoIds = (
      await prisma.runVideo.findMany({ where: { runId }, select: { videoId: true }, orderBy: { videoId: "asc" } })
    ).map((v) => v.videoId);
    const { runId: other } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: () => [],
      outcome: (v) => ({ verdict: v % 2 === 0, overall: 50 }),
    });
    await prisma.runMetric.deleteMany({ where: { runId: other, metric: "overall" } });
    expect(await prisma.runMetric.count({ where: { runId: other, metric: "verdict" } })).toBeGreaterThan(0);
    const html = await render(viewer, {}, other);
    expect(html).toMatch(/<option value="verdict" selected="">/);
    expect(html).not.toContain("No model to rank");
    expect(html).toContain('data-testid="leaderboard-row"');
    expect(html.indexOf('<option value="verdict"')).toBeLessThan(html.indexOf('<option value="I"'));
  });
});
