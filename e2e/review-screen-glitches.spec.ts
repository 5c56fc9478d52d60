import { expect, test, type APIRequestContext } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";
import { seedReviewSession } from "./review-session";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// The review screen's loose ends: `?` draws its key list over the page (where the reviewer is, not below the fold);
// after the last item of a blind verdict queue the header says submitted and shows the judge; leaving the screen by
// its queue overview link gives back the claims ahead first, so the overview counts only the item left open.

/** A blind verdict queue over `count` framed videos (the judge says yes), and a signed-in reviewer. */
async function seedBlindVerdictQueue(request: APIRequestContext, label: string, count: number) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const owner = await ownerWithProject(`${label}-owner`);
  const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const { projectId, videoIds } = await projectWithFramedVideos(
    prisma,
    { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false },
    { videoCount: count, keyFrames: 1, name: label },
  );
  const reviewer = { email: `${label}-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
  await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
  await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: ownerUser.id },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: ownerUser.id, status: "done" },
  });
  for (const videoId of videoIds) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { S: 7, D: 0, I: 0, overall: 40, hallucination: true, complete: true },
      metrics: { overall: 40, S: 7, verdict: true },
    });
  }
  const ownerKey = await cli("create-api-key", "--email", owner.email);
  const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
    headers: { authorization: `Bearer ${ownerKey.trim()}` },
    data: { name: `${label} verdicts`, runId: run.id, scope: "verdict", reviewersPerItem: 1, blind: true },
  });
  expect(created.status()).toBe(201);
  const { id: queueId } = (await created.json()) as { id: string };
  return { prisma, projectId, queueId, reviewer };
}

test("? shows the review screen's keys over the page, in view wherever it is scrolled; Esc hides them", async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { prisma, projectId, queueId, reviewer } = await seedBlindVerdictQueue(request, "keys-overlay", 1);
  try {
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    await expect(page.getByTestId("review-screen")).toBeVisible();
    await expect(page.getByTestId("shortcut-help-overlay")).toHaveCount(0);

    for (const scrollY of [0, 10_000]) {
      await page.evaluate((y) => window.scrollTo(0, y), scrollY);
      await page.keyboard.press("?");
      const overlay = page.getByTestId("shortcut-help-overlay");
      await expect(overlay).toBeVisible();
      await expect(overlay).toContainText("type 1 then 0 within 600 ms");
      await expect(overlay).toBeInViewport({ ratio: 1 });
      // Drawn over the page (fixed), by the one key-list component the curation screen uses too.
      expect(await page.getByTestId("key-list-overlay").evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
      await page.keyboard.press("Escape");
      await expect(overlay).toHaveCount(0);
    }
  } finally {
    await prisma.$disconnect();
  }
});

test("after the last item of a blind verdict queue the header says submitted and shows the judge", async ({
  page,
  request,
  baseURL,
}) => {
  const { prisma, projectId, queueId, reviewer } = await seedBlindVerdictQueue(request, "last-verdict", 1);
  try {
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    await expect(page.getByTestId("item-position")).toContainText("not submitted yet");
    // The verdict (required) and the overall (optional), the judge's values hidden until submitted.
    await expect(page.getByTestId("judge-hidden")).toHaveCount(2);

    await page.keyboard.press("n");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("status-message")).toContainText("Submitted. Nothing is left for you in this queue");
    await expect(page.getByTestId("item-position")).toHaveText("your item 1 of 1 · submitted");
    await expect(page.getByTestId("judge-hidden")).toHaveCount(0);
    await expect(page.getByTestId("judge-value")).toHaveText(["yes", "40"]);
    await expect(page.getByTestId("blind-badge")).toContainText("submitted: judge values shown");
    await expect(page.getByTestId("my-value").first()).toHaveText("no");
  } finally {
    await prisma.$disconnect();
  }
});

test("leaving by the queue overview link gives back the claims ahead, one still on its way included, before the overview counts them", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const seeded = await seedReviewSession(page, request, baseURL!, 4, "leave-claims");
  const { prisma, projectId, queueId, reviewerActor } = seeded;
  try {
    const claimed = () =>
      prisma.reviewQueueAssignment.count({ where: { queueId, reviewerId: reviewerActor.userId, status: "claimed" } });
    // The second claim ahead is made on the server, and its answer is slow to come back.
    let aheadCalls = 0;
    let secondAsked!: () => void;
    const secondAskedPromise = new Promise<void>((resolve) => (secondAsked = resolve));
    await page.route(
      (url) => url.pathname.endsWith("/ahead"),
      async (route) => {
        aheadCalls += 1;
        const response = await route.fetch();
        if (aheadCalls === 2) {
          secondAsked();
          await new Promise((resolve) => setTimeout(resolve, 700));
        }
        await route.fulfill({ response }).catch(() => {});
      },
    );
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    await expect(page.getByTestId("review-screen")).toBeVisible();
    await secondAskedPromise;
    // The item on screen and two claimed ahead (the second one's answer not in yet).
    expect(await claimed()).toBe(3);

    await page.getByTestId("queue-overview-link").click();
    await expect(page).toHaveURL(new RegExp(`/queues/${queueId}$`));
    // Read by the overview as it loads, not after a reload: only the item that was on screen is in progress.
    await expect(page.getByTestId("my-queue-count")).toHaveText("You have submitted 0 items and have 1 in progress.");
    expect(await claimed()).toBe(1);
  } finally {
    await prisma.$disconnect();
  }
});
