import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Queue states: the owner assigns a queue to one reviewer (another sees it assigned to someone else,
// with no Start reviewing), a finished queue offers the agreement of its items instead of Start
// reviewing, and an archived queue leaves the default list for "archived".
test("assigned, finished and archived queues", async ({ page, browser }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  const { createQueue } = await import("../lib/queues/create-queue");
  const { getQueueItem } = await import("../lib/queues/get-queue-item");
  const { nextItem } = await import("../lib/queues/next-item");
  const { submitItem } = await import("../lib/queues/submit-item");
  const { projectAccess } = await import("../lib/authz/permissions");
  const { queueAccess } = await import("../testkit/testing/queue-access");
  const owner = await ownerWithProject("queue-states");
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
    videoCount: 1,
    keyFrames: 1,
    name: "Queue states e2e",
  });
  const { runId } = await seedFinishedRun(prisma, actor, projectId, videoIds, {
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 3 }],
    outcome: () => ({ verdict: false, overall: 80 }),
  });
  const emails = [`qs-ann-${Date.now()}@example.test`, `qs-bob-${Date.now()}@example.test`];
  const reviewers = [];
  for (const email of emails) {
    await cli("create-user", "--email", email, "--password", "reviewer-password-1");
    const reviewer = await prisma.user.findUniqueOrThrow({ where: { email } });
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.id, role: "reviewer" } });
    reviewers.push({ userId: reviewer.id, email, name: reviewer.name, isAdmin: false });
  }
  const queue = await createQueue(prisma, await projectAccess(prisma, actor, projectId, "queues.manage"), {
    name: "For Ann",
    filter: {},
    scope: "verdict",
  });

  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${projectId}/queues/${queue.id}`);
  await page.getByTestId("queue-assignees").fill(emails[0]!);
  await page.getByRole("button", { name: "Save assignees" }).click();
  await expect(page.getByTestId("queue-owner-message")).toHaveText(`Assigned to ${emails[0]}.`);

  const context = await browser.newContext();
  const bob = await context.newPage();
  await signIn(bob, emails[1]!, "reviewer-password-1");
  await bob.goto(`/projects/${projectId}/queues/${queue.id}`);
  await expect(bob.getByTestId("queue-assigned")).toHaveText("assigned to someone else");
  await expect(bob.getByTestId("queue-assigned-elsewhere")).toBeVisible();
  await expect(bob.getByTestId("start-reviewing")).toHaveCount(0);
  const refused = await bob.request.post(`/api/v1/queues/${queue.id}/next`, {
    data: {},
    headers: { origin: new URL(bob.url()).origin },
  });
  expect(refused.status()).toBe(403);

  // Ann reviews the only item: the queue is done.
  const ann = reviewers[0]!;
  const annAccess = await queueAccess(prisma, ann, queue.id, "scores.review");
  const { itemId } = await nextItem(prisma, annAccess, queue.id);
  const item = await getQueueItem(prisma, annAccess, queue.id, itemId!);
  await submitItem(prisma, annAccess, queue.id, itemId!, {
    judgments: [{ target: item.targets.find((t) => t.key === "verdict")!.key, value: 0 }],
  });
  await bob.reload();
  await expect(bob.getByTestId("queue-done")).toHaveText("Done — 1 item, see agreement");
  await expect(bob.getByTestId("start-reviewing")).toHaveCount(0);
  await bob.getByRole("link", { name: "see agreement" }).click();
  await expect(bob).toHaveURL(new RegExp(`/agreement\\?.*runId=${runId}`));
  await expect(bob.getByTestId("summary-reviewed")).toHaveText("1");
  await context.close();

  // Archive: gone from the default list, shown under "archived".
  await page.reload();
  await page.getByTestId("queue-archive").click();
  await expect(page.getByTestId("queue-archived")).toBeVisible();
  await page.goto(`/projects/${projectId}/queues`);
  await expect(page.getByTestId("queue")).toHaveCount(0);
  await page.getByTestId("queues-archived-toggle").click();
  await expect(page.getByTestId("queue")).toHaveCount(1);
  await expect(page.getByTestId("queue")).toContainText("For Ann");
  await prisma.$disconnect();
});
