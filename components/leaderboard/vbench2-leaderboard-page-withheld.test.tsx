/**
 * The VBench-2.0 leaderboard page rendered on the server (react-dom/server, PostgreSQL and the stub LLM): an owner
 * reviewing some of the run's videos in a blind queue gets the withheld notice naming the queue and the items left,
 * and no ranking, no "dimensions have no video here" and no CSV or LaTeX link; a viewer gets the whole board.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";

import { stubEndpoint, vbench2Project } from "@/testkit/tasks/vbench2/vbench2-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { projectAccess } from "../../lib/authz/permissions";

const page = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/app/_server/actor", () => ({
  requirePageProjectAccess: async () => ({
    actor: page.actor,
    role: "owner",
    catalogue: (await import("@/lib/task-modules/task-catalogue")).builtInCatalogue(),
  }),
}));
const { default: Vbench2LeaderboardPage } = await import("@/components/tasks/vbench2/pages/leaderboard-page");
const { default: Vbench2ResultsPage } = await import("@/components/tasks/vbench2/pages/vbench2-page");

let stub: StubServer;
let owner: Actor;
let viewer: Actor;
let projectId: string;
let runId: string;

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, viewer] = await Promise.all([makeUser(), makeUser()]);
  let videoIds: string[];
  ({ projectId, videoIds } = await vbench2Project(prisma, owner, [
    { model: "GenA", dimension: "Mechanics", prompt: "A ball falls", auxiliaryInfo: ["[yes] falls?"] },
    { model: "GenB", dimension: "Mechanics", prompt: "A ball falls", auxiliaryInfo: ["[yes] falls?"] },
    { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[yes] green?"] },
    { model: "GenB", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[no] green?"] },
  ]));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
  runId = (
    await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
    )
  ).id;
  // The owner reviews both Mechanics videos blind and holds the first.
  const queue = await prisma.reviewQueue.create({
    data: {
      projectId,
      name: "Mechanics blind",
      runId,
      scope: "scores",
      blind: true,
      itemCount: 2,
      createdById: owner.userId,
    },
  });
  for (const [position, videoId] of videoIds.slice(0, 2).entries())
    await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position } });
  const first = await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId: queue.id, position: 0 } });
  await prisma.reviewQueueAssignment.create({
    data: { itemId: first.id, queueId: queue.id, reviewerId: owner.userId },
  });
}, 120_000);
afterAll(() => stub.close());

async function render(actor: Actor) {
  page.actor = actor;
  const element = await Vbench2LeaderboardPage({
    params: Promise.resolve({ projectId }),
    searchParams: Promise.resolve({ runId, samples: "200" }),
  });
  return renderToStaticMarkup(element);
}

describe("the VBench-2.0 leaderboard page", () => {
  it("withholds the whole board from an owner reviewing some of its videos blind, saying which queue and how many items are left", async () => {
    const html = await render(owner);
    expect(html).toContain('data-testid="withheld"');
    expect(html).toContain(
      "The VBench-2.0 leaderboard is hidden while you review &quot;Mechanics blind&quot; blind: 2 items left.",
    );
    expect(html).not.toContain('data-testid="vbench2-leaderboard-row"');
    expect(html).not.toContain("have no video here");
    expect(html).not.toContain("format=csv");
    expect(html).not.toContain("format=latex");
  });

  it("gives a viewer the whole board with its downloads", async () => {
    const html = await render(viewer);
    expect(html).not.toContain('data-testid="withheld"');
    expect(html.match(/data-testid="vbench2-leaderboard-row"/g)).toHaveLength(2);
    expect(html).toContain("format=csv");
  });

  it("withholds the whole results page from the owner (notice, no table, sections, JSON or leaderboard link), and gives the viewer all of it", async () => {
    page.actor = owner;
    const mine = renderToStaticMarkup(
      await Vbench2ResultsPage({ params: Promise.resolve({ projectId }), searchParams: Promise.resolve({ runId }) }),
    );
    expect(mine).toContain('data-testid="withheld"');
    expect(mine).toContain(
      "The VBench-2.0 results are hidden while you review &quot;Mechanics blind&quot; blind: 2 items left.",
    );
    expect(mine).toContain('data-testid="vbench2-choose"');
    expect(mine).not.toContain('data-testid="vbench2-dimensions"');
    expect(mine).not.toContain("excluded,");
    expect(mine).not.toContain("format=json");
    expect(mine).not.toContain('data-testid="vbench2-leaderboard-link"');
    // GenA's and GenB's Mechanics videos are both blind: neither eval_results file would answer.
    expect(mine).not.toContain("format=eval_results");
    page.actor = viewer;
    const theirs = renderToStaticMarkup(
      await Vbench2ResultsPage({ params: Promise.resolve({ projectId }), searchParams: Promise.resolve({ runId }) }),
    );
    expect(theirs).not.toContain('data-testid="withheld"');
    expect(theirs).toContain('data-testid="vbench2-dimensions"');
    expect(theirs).toContain("format=json");
    expect(theirs.match(/format=eval_results&amp;model=/g)).toHaveLength(2);
  });
});
