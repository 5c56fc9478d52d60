import { expect, test } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// A review item scored and submitted with the mouse alone (issue 38): after the one page.goto, every action is a
// click, never a key. Every target has a button per value; submitting too early gives the count of missing targets
// and a button to the first; after a blind submit the judge's values show, marked where the reviewer agrees, until
// the reviewer goes on.

/** Two framed videos with 3 key frames each; the judge's s1 per key frame and d1 per cluster (2, 3, 4); a reviewer. */
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
    { videoCount: 2, keyFrames: 3, name: label },
  );
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: user.id },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: user.id, status: "done" },
  });
  for (const videoId of videoIds) {
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
  }
  const reviewer = { email: `${label}-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
  await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
  await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
  const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
  return { prisma, projectId, runId: run.id, ownerKey, reviewer };
}

test("a blind review item scored and submitted with the mouse alone: missing count with a jump, then the judge's values with agreement", async ({
  page,
  request,
  baseURL,
}) => {
  const { prisma, projectId, runId, ownerKey, reviewer } = await seed("review-by-mouse");
  try {
    const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: {
        name: "s1 and d1 by mouse",
        runId,
        scope: "scores",
        categories: ["s1", "d1"],
        reviewersPerItem: 1,
        blind: true,
      },
    });
    expect(created.status()).toBe(201);
    const { id: queueId } = (await created.json()) as { id: string };

    // Signed in through the auth API, then the one page.goto; from here on only clicks.
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await page.getByTestId("start-reviewing").click();

    const screen = page.getByTestId("review-screen");
    await expect(screen).toBeVisible();
    const first = (await screen.getAttribute("data-item-id"))!;
    await expect(page.getByTestId("blind-badge")).toContainText("hidden until you submit");
    await expect(page.getByTestId("item-position")).toHaveText("your item 1 of 1 · not submitted yet");
    // s1 per key frame, then d1 per cluster: six targets, each with a button per value 0–10.
    const targets = page.getByTestId("target");
    await expect(targets).toHaveCount(6);
    for (let i = 0; i < 6; i++) await expect(targets.nth(i).getByTestId("score-button")).toHaveCount(11);
    await expect(page.getByTestId("judge-hidden")).toHaveCount(6);
    // "A score moves on" is on by default: a click moves the focus to the next target.
    await expect(page.getByTestId("digit-advances")).toBeChecked();

    const pick = (target: number, value: number) =>
      targets.nth(target).locator(`[data-testid="score-button"][data-value="${value}"]`).click();
    await pick(0, 2);
    await expect(targets.nth(0).getByTestId("my-value")).toHaveText("2");
    await expect(targets.nth(1)).toHaveAttribute("data-focused", "true");
    // A click scores any target, wherever the focus is; the focus then moves on from it.
    await pick(2, 4);
    await expect(targets.nth(2).getByTestId("my-value")).toHaveText("4");
    await expect(targets.nth(3)).toHaveAttribute("data-focused", "true");

    // Submitted too early: the count of missing targets, not their list, and a button to the first of them.
    await page.getByTestId("submit-item").click();
    const status = page.getByTestId("status-message");
    await expect(status).toContainText("4 of 6 still need a value");
    await expect(status).not.toContainText("cluster");
    await page.getByTestId("jump-to-missing").click();
    await expect(targets.nth(1)).toHaveAttribute("data-focused", "true");
    await expect(targets.nth(1)).toBeInViewport();

    // The rest by mouse: the judge says 4 for d1 · cluster 3; the reviewer's 9 is more than the gap of 2 away.
    await pick(1, 3);
    await pick(3, 2);
    await pick(4, 3);
    await pick(5, 9);
    await expect(page.getByTestId("my-value")).toHaveText(["2", "3", "4", "2", "3", "9"]);
    await expect(targets.nth(5).locator('[data-testid="score-button"][data-value="9"]')).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    // Submitted: the item stays, now with the judge's values and where the reviewer agrees, until they go on.
    await page.getByTestId("submit-item").click();
    await expect(page.getByTestId("reveal-summary")).toContainText("you agree on 5 of 6 targets");
    await expect(screen).toHaveAttribute("data-item-id", first);
    await expect(page.getByTestId("judge-value")).toHaveText(["2", "3", "4", "2", "3", "4"]);
    await expect(page.getByTestId("agreement")).toHaveText(["agree", "agree", "agree", "agree", "agree", "differ"]);
    await expect(page.getByTestId("blind-badge")).toContainText("submitted: judge values shown");
    await expect(page.getByTestId("item-position")).toHaveText("your item 1 of 1 · submitted");
    await expect(page.getByTestId("my-count")).toHaveText("you: 1 submitted");

    // Next item: a new video, blind again; the position counts the same way.
    await page.getByTestId("reveal-next").click();
    await expect(screen).not.toHaveAttribute("data-item-id", first);
    await expect(page.getByTestId("judge-hidden")).toHaveCount(6);
    await expect(page.getByTestId("item-position")).toHaveText("your item 2 of 2 · not submitted yet");
    // Back to the first with the mouse: an ordinary submitted item, the judge's values beside the reviewer's.
    await page.getByTestId("previous-item").click();
    await expect(screen).toHaveAttribute("data-item-id", first);
    await expect(page.getByTestId("item-position")).toHaveText("your item 1 of 2 · submitted");
    await expect(page.getByTestId("reveal-summary")).toHaveCount(0);
    await expect(page.getByTestId("judge-value")).toHaveText(["2", "3", "4", "2", "3", "4"]);

    const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });
    const saved = await prisma.humanJudgment.findMany({
      where: { reviewerId: reviewerUser.id },
      select: { target: true, scopeIndex: true, value: true },
    });
    expect(saved.map((j) => `${j.target}@${j.scopeIndex}=${j.value}`).sort()).toEqual([
      "d1@0=2",
      "d1@1=3",
      "d1@2=9",
      "s1@0=2",
      "s1@1=3",
      "s1@2=4",
    ]);
  } finally {
    await prisma.$disconnect();
  }
});
