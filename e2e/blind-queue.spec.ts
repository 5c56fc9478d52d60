import { expect, test } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// Blind covers the whole queue: a reviewer holding the first item of a blind queue who opens the next
// item's video page directly sees none of the judge's values there; the item they submit is revealed.
const JUDGE_S1 = 7.25;
const JUDGE_OVERALL = 61.5;

test("a blind queue hides every one of its videos from its reviewer, a direct visit to the next item's video page included", async ({
  page,
  request,
  baseURL,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  try {
    const owner = await ownerWithProject("blind-owner");
    const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false },
      { videoCount: 3, keyFrames: 1, name: "Blind queue" },
    );
    const reviewer = { email: `blind-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
    await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
    await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");

    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: ownerUser.id },
    });
    const run = await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: ownerUser.id,
        status: "done",
      },
    });
    for (const videoId of videoIds) {
      const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
      const step = await prisma.stepResult.create({
        data: {
          runId: run.id,
          videoId,
          stepId: "static_hallucination",
          scopeIndex: 0,
          status: "done",
          templateId: "t",
          output: { scores: { s1: JUDGE_S1 } },
        },
      });
      await prisma.score.create({
        data: {
          runId: run.id,
          videoId,
          stepResultId: step.id,
          stepId: "static_hallucination",
          scopeIndex: 0,
          category: "s1",
          value: JUDGE_S1,
        },
      });
      await createRunVideo(prisma, {
        runId: run.id,
        videoId,
        frameSetId: frameSet.id,
        status: "done",
        summary: { S: JUDGE_S1, D: 0, I: 0, overall: JUDGE_OVERALL, hallucination: true, complete: true },
        metrics: { overall: JUDGE_OVERALL, S: JUDGE_S1, verdict: true },
      });
    }
    const ownerKey = await cli("create-api-key", "--email", owner.email);
    const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
      headers: { authorization: `Bearer ${ownerKey.trim()}` },
      data: {
        name: "Blind s1",
        filter: { prompt: "ramp" },
        scope: "scores",
        categories: ["s1"],
        reviewersPerItem: 1,
        blind: true,
      },
    });
    expect(created.status()).toBe(201);
    const { id: queueId } = (await created.json()) as { id: string };
    const items = await prisma.reviewQueueItem.findMany({ where: { queueId }, orderBy: { position: "asc" } });
    expect(items).toHaveLength(3);

    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    // Before claiming anything the reviewer sees the judge's values (blind starts with the first claim).
    await page.goto(`/projects/${projectId}/videos/${items[1]!.videoId}`);
    await expect(page.getByTestId("judge-summary")).toContainText(String(JUDGE_OVERALL));

    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    const screen = page.getByTestId("review-screen");
    await expect(screen).toBeVisible();
    const held = await screen.getAttribute("data-item-id");
    const heldVideo = items.find((i) => i.id === held)!.videoId;
    const nextVideo = items.find((i) => i.id !== held)!.videoId;

    // A direct visit to another item's video page while holding this one: blind.
    const tab = await page.context().newPage();
    await tab.goto(`/projects/${projectId}/videos/${nextVideo}`);
    await expect(tab.getByTestId("blind-notice")).toBeVisible();
    await expect(tab.getByTestId("judge-summary")).toHaveCount(0);
    await expect(tab.locator("main")).not.toContainText(String(JUDGE_S1));
    await expect(tab.locator("main")).not.toContainText(String(JUDGE_OVERALL));
    expect(await (await tab.request.get(`/api/v1/videos/${nextVideo}/scores`)).json()).toMatchObject({
      blind: true,
      summary: null,
    });
    expect(await (await tab.request.get(`/api/v1/videos/${nextVideo}/reviews`)).json()).toMatchObject({ blind: true });
    // The video list marks all three videos blind.
    await tab.goto(`/projects/${projectId}/videos?runId=${run.id}`);
    await expect(tab.getByText("blind", { exact: true })).toHaveCount(3);

    // Submitting the held item reveals its video; the others stay blind while they are left to do.
    await page.keyboard.press("3");
    await page.keyboard.press("Enter");
    // The submitted item shows the judge's values until the reviewer goes on (Enter) to the next, claimed ahead.
    await expect(page.getByTestId("reveal-summary")).toBeVisible();
    await expect(page.getByTestId("judge-value")).toHaveText([String(JUDGE_S1)]);
    await page.keyboard.press("Enter");
    await expect(screen).not.toHaveAttribute("data-item-id", held!);
    await expect(page.getByTestId("my-count")).toHaveText("you: 1 submitted");
    await tab.goto(`/projects/${projectId}/videos/${heldVideo}`);
    await expect(tab.getByTestId("judge-summary")).toContainText(String(JUDGE_OVERALL));
    await expect(tab.getByTestId("blind-notice")).toHaveCount(0);
    for (const item of items.filter((i) => i.id !== held)) {
      expect(await (await tab.request.get(`/api/v1/videos/${item.videoId}/scores`)).json()).toMatchObject({
        blind: true,
      });
    }
    await tab.close();
  } finally {
    await prisma.$disconnect();
  }
});
