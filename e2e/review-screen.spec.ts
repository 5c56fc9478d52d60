import { expect, test, type Page } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// The review screen around the form: the project's and the queue's guidelines (Markdown, with raw HTML shown as
// inert text) toggled by `g`; the player pinned beside the targets, seeking to the key frame or cluster of the
// focused target and lighting the frames the judge saw (the video page's heat map does the same); `?` on the
// queue page; and the loading state of a navigation by link.

const HOSTILE =
  '<script>window.__guidelinesRan = 1</script>\n\n<img src="/nope.png" onerror="window.__guidelinesRan = 2">';

/** One framed video with 3 key frames; the judge's s1 per key frame and d1 per cluster; a scores queue of it. */
async function seed(label: string) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const owner = await ownerWithProject(`${label}-owner`);
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const { projectId, videoIds } = await projectWithFramedVideos(
    prisma,
    { userId: user.id, email: user.email, name: user.name, isAdmin: false },
    { videoCount: 1, keyFrames: 3, name: label },
  );
  const videoId = videoIds[0]!;
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: user.id },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: user.id, status: "done" },
  });
  const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
  for (let k = 0; k < 3; k++) {
    for (const [stepId, category] of [
      ["static_hallucination", "s1"],
      ["dynamic_hallucination", "d1"],
    ] as const) {
      const step = await prisma.stepResult.create({
        data: {
          runId: run.id,
          videoId,
          stepId,
          scopeIndex: k,
          status: "done",
          templateId: "t",
          output: { scores: { [category]: 2 + k } },
        },
      });
      await prisma.score.create({
        data: { runId: run.id, videoId, stepResultId: step.id, stepId, scopeIndex: k, category, value: 2 + k },
      });
    }
  }
  await createRunVideo(prisma, {
    runId: run.id,
    videoId,
    frameSetId: frameSet.id,
    status: "done",
    summary: { S: 4, D: 4, I: 0, overall: 40, hallucination: false, complete: true },
    metrics: { S: 4, D: 4, I: 0, overall: 40, verdict: false },
  });
  const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
  return { prisma, owner, projectId, videoId, runId: run.id, ownerKey };
}

const playerTime = (page: Page) => page.getByTestId("player").evaluate((video: HTMLVideoElement) => video.currentTime);

test("guidelines render safely and toggle with g; focusing d1 · cluster 3 seeks the pinned player", async ({
  page,
  request,
}) => {
  const { prisma, owner, projectId, videoId, runId, ownerKey } = await seed("review-screen");
  try {
    const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: {
        name: "s1 and d1",
        runId,
        scope: "scores",
        categories: ["s1", "d1"],
        reviewersPerItem: 1,
        blind: false,
        guidelines: `Mark **melting** hands.\n\n${HOSTILE}`,
      },
    });
    expect(created.status()).toBe(201);
    const { id: queueId } = (await created.json()) as { id: string };

    // The owner writes the project's guidelines in its settings.
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/settings`);
    await page
      .getByTestId("project-guidelines-input")
      .fill("Score what you *see*, not the prompt.\n\n- d: across frames");
    await page.getByRole("button", { name: "Save guidelines" }).click();
    await expect(page.getByText("Guidelines saved.")).toBeVisible();

    // The queue page: both guidelines, and its keys behind `?`.
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("project-guidelines").locator("em")).toHaveText("see");
    await expect(page.getByTestId("queue-keys")).toHaveCount(0);
    await page.keyboard.press("?");
    await expect(page.getByTestId("queue-keys")).toContainText("start reviewing");

    await page.keyboard.press("s");
    const screen = page.getByTestId("review-screen");
    await expect(screen).toBeVisible();
    const guidelines = page.getByTestId("review-guidelines");
    await expect(guidelines.getByTestId("project-guidelines").locator("li")).toHaveText("d: across frames");
    await expect(guidelines.getByTestId("queue-guidelines").locator("strong")).toHaveText("melting");
    // Raw HTML is text: shown as written, never an element, never run.
    await expect(guidelines.getByTestId("queue-guidelines")).toContainText(
      "<script>window.__guidelinesRan = 1</script>",
    );
    await expect(guidelines.getByTestId("queue-guidelines")).toContainText('onerror="window.__guidelinesRan = 2"');
    await expect(guidelines.locator("script, img")).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { __guidelinesRan?: number }).__guidelinesRan),
    ).toBeUndefined();
    await page.keyboard.press("g");
    await expect(guidelines.getByTestId("queue-guidelines")).toHaveCount(0);
    await expect(guidelines).toHaveAttribute("data-shown", "false");
    await page.keyboard.press("g");
    await expect(guidelines.getByTestId("queue-guidelines")).toBeVisible();

    // Targets: s1 per key frame, then d1 per cluster. Move to "d1 · cluster 3".
    const targets = page.getByTestId("target");
    await expect(targets).toHaveCount(6);
    const labels = await page
      .getByTestId("target-label")
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText));
    const d1c3 = labels.findIndex((label) => label.startsWith("d1") && label.includes("cluster 3"));
    expect(d1c3).toBe(5);
    // The first target (s1 · key frame 1, at 0.25 s) is focused: the player is there already.
    await expect.poll(() => playerTime(page)).toBeCloseTo(0.25, 2);
    for (let i = 0; i < d1c3; i++) await page.keyboard.press("j");
    await expect(targets.nth(d1c3)).toHaveAttribute("data-focused", "true");
    // Cluster 3 is frames 6–8 around key frame 3 (frame 7, at 1.75 s): the player goes there and stays in view.
    await expect.poll(() => playerTime(page)).toBeCloseTo(1.75, 2);
    await expect(page.getByTestId("player")).toBeInViewport();
    await expect(page.getByTestId("highlight-label")).toContainText("cluster 3");
    await expect(page.locator('[data-testid="strip-frame"][data-highlighted="true"]')).toHaveCount(3);
    expect(
      await page
        .locator('[data-testid="strip-frame"][data-highlighted="true"]')
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-frame-index"))),
    ).toEqual(["6", "7", "8"]);
    // With the page scrolled to its end, the pinned player is still on screen.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.getByTestId("player")).toBeInViewport();

    // The video page: the heat map's d1 cell of cluster 3 does the same, with the player pinned beside the map.
    await page.goto(`/projects/${projectId}/videos/${videoId}?runId=${runId}`);
    const cell = page.locator('[data-testid="score-cell"][data-category="d1"][data-scope="2"]');
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    await expect.poll(() => playerTime(page)).toBeCloseTo(1.75, 2);
    await expect(page.getByTestId("player")).toBeInViewport();
    await expect(page.locator('[data-testid="strip-frame"][data-highlighted="true"]')).toHaveCount(3);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.getByTestId("player")).toBeInViewport();
  } finally {
    await prisma.$disconnect();
  }
});

test("a navigation by link shows a loading state until the page arrives", async ({ page }) => {
  const owner = await ownerWithProject("nav-pending");
  await signIn(page, owner.email, owner.password);
  // Hold the page's server response for a moment, as a slow server would.
  let held = 0;
  await page.route(
    (url) => url.pathname === `/projects/${owner.projectId}/queues`,
    async (route) => {
      held++;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    },
  );
  await page.goto(`/projects/${owner.projectId}`);
  await expect(page.getByTestId("navigation-pending")).toHaveCount(0);
  await page.locator(`a[href="/projects/${owner.projectId}/queues"]`).first().click();
  await expect(page.getByTestId("navigation-pending")).toBeVisible();
  await expect(page.locator("main")).toHaveAttribute("aria-busy", "true");
  await expect(page).toHaveURL(new RegExp(`/projects/${owner.projectId}/queues$`), { timeout: 15_000 });
  await expect(page.getByTestId("navigation-pending")).toHaveCount(0);
  await expect(page.locator("main")).not.toHaveAttribute("aria-busy", "true");
  expect(held).toBeGreaterThan(0);
});
