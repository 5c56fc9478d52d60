import { expect, test, type APIRequestContext } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

/**
 * A project with `videoCount` videos judged by the same scores (s1 at two key frames: 2, 7, present at t = 5; s2: 1, 0,
 * absent; d1 at one cluster: 3, absent), a reviewer, and a presence-first queue over s1, s2 and d1.
 */
async function seedPresenceQueue(request: APIRequestContext, prefix: string, videoCount: number) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const owner = await ownerWithProject(`${prefix}-owner`);
  const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const { projectId, videoIds } = await projectWithFramedVideos(
    prisma,
    { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false },
    { videoCount, keyFrames: 2, name: "Presence first" },
  );
  const reviewer = { email: `${prefix}-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
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
    for (const [stepId, scopeIndex, values] of [
      ["static_hallucination", 0, { s1: 2, s2: 1 }],
      ["static_hallucination", 1, { s1: 7, s2: 0 }],
      ["dynamic_hallucination", 0, { d1: 3 }],
    ] as const) {
      const step = await prisma.stepResult.create({
        data: {
          runId: run.id,
          videoId,
          stepId,
          scopeIndex,
          status: "done",
          templateId: "t",
          output: { scores: values },
        },
      });
      await prisma.score.createMany({
        data: Object.entries(values).map(([category, value]) => ({
          runId: run.id,
          videoId,
          stepResultId: step.id,
          stepId,
          scopeIndex,
          category,
          value,
        })),
      });
    }
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { S: 7, D: 3, I: 0, overall: 60, hallucination: true, complete: true },
      metrics: { overall: 60, S: 7, D: 3, verdict: true },
    });
  }

  const ownerKey = await cli("create-api-key", "--email", owner.email);
  const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
    headers: { authorization: `Bearer ${ownerKey.trim()}` },
    data: {
      name: "Presence s1/s2/d1",
      filter: {},
      scope: "scores",
      categories: ["s1", "s2", "d1"],
      mode: "presence",
      reviewersPerItem: 1,
      blind: false,
    },
  });
  expect(created.status()).toBe(201);
  const { id: queueId } = (await created.json()) as { id: string };
  return { prisma, projectId, videoIds, videoId: videoIds[0]!, reviewer, queueId };
}

// Presence first, then grade, with the keyboard alone: the reviewer marks which categories are present,
// grades only those (and the ones the judge says are present), and the absent ones are stored as 0.
test("a presence-first queue item is toggled, graded and submitted keyboard-only, and the judgments are stored", async ({
  page,
  request,
  baseURL,
}) => {
  const { prisma, projectId, videoId, reviewer, queueId } = await seedPresenceQueue(request, "presence", 1);
  try {
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");

    // The presence step: each category with its key, name and definition, and the judge's presence.
    const step = page.getByTestId("presence-step");
    await expect(step).toBeVisible();
    const categories = page.getByTestId("presence-category");
    await expect(categories).toHaveCount(3);
    await expect(categories.getByTestId("presence-key")).toHaveText(["1", "2", "3"]);
    await expect(categories.nth(0)).toContainText("s1 · Geometric structure irrationality");
    await expect(categories.nth(0).getByTestId("presence-definition")).not.toBeEmpty();
    await expect(categories.getByTestId("presence-judge")).toHaveText([
      "judge: present",
      "judge: absent",
      "judge: absent",
    ]);
    await expect(page.getByTestId("targets")).toBeHidden();

    // 2 and 3 mark s2 and d1 present, 3 again takes d1 back; digits here toggle, they never score.
    await page.keyboard.press("2");
    await page.keyboard.press("3");
    await page.keyboard.press("3");
    await expect(categories.getByTestId("presence-mine")).toHaveText(["absent", "present", "absent"]);
    await expect(categories.nth(1)).toHaveAttribute("data-present", "true");

    // Enter: grade s2 (the reviewer says present) and s1 (the judge does); d1 is not asked.
    await page.keyboard.press("Enter");
    await expect(step).toBeHidden();
    const targets = page.getByTestId("target");
    await expect(targets.getByTestId("target-label")).toHaveText([
      /^s1.*key frame 1/,
      /^s2.*key frame 1/,
      /^s1.*key frame 2/,
      /^s2.*key frame 2/,
    ]);
    await expect(targets.getByTestId("target-definition").first()).not.toBeEmpty();
    await expect(page.getByTestId("presence-summary")).toContainText("Present: s2 · the judge also says: s1");
    for (const [i, digit] of ["3", "4", "1", "6"].entries()) {
      if (i > 0) await page.keyboard.press("j");
      await page.keyboard.press(digit);
    }
    await expect(targets.getByTestId("my-value")).toHaveText(["3", "4", "1", "6"]);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("status-message")).toContainText("Nothing is left for you in this queue");

    // Stored: the three presence judgments, the graded values, and d1's score as the absent value 0.
    const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });
    const stored = await prisma.humanJudgment.findMany({
      where: { reviewerId: reviewerUser.id, videoId },
      select: { targetType: true, target: true, scopeIndex: true, value: true },
    });
    expect(
      stored
        .map((j) => `${j.targetType}:${j.target}${j.targetType === "score" ? `@${j.scopeIndex}` : ""}=${j.value}`)
        .sort(),
    ).toEqual(
      [
        "presence:s1=0",
        "presence:s2=1",
        "presence:d1=0",
        "score:s1@0=3",
        "score:s2@0=4",
        "score:s1@1=1",
        "score:s2@1=6",
        "score:d1@0=0",
      ].sort(),
    );

    // Opened again, the item shows the stored answers: s2 present, then its values.
    const itemId = (await prisma.reviewQueueItem.findFirstOrThrow({ where: { queueId } })).id;
    await page.goto(`/projects/${projectId}/queues/${queueId}/items/${itemId}`);
    await expect(categories.getByTestId("presence-mine")).toHaveText(["absent", "present", "absent"]);
    await page.keyboard.press("Enter");
    await expect(targets.getByTestId("my-value")).toHaveText(["3", "4", "1", "6"]);
    // p goes back to the presence step.
    await page.keyboard.press("p");
    await expect(step).toBeVisible();
  } finally {
    await prisma.$disconnect();
  }
});

// A presence-first item submitted in the background whose submission fails reopens as the reviewer left it: the
// presence answers as well as the values (they used to come back as stored, so s2 was absent and its values gone).
test("a presence-first item whose background submission fails reopens with its presence answers and values", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { prisma, projectId, reviewer, queueId } = await seedPresenceQueue(request, "presence-unsent", 2);
  try {
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    const claimedAhead = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/ahead") && r.ok());
    await page.keyboard.press("s");
    const screen = page.getByTestId("review-screen");
    await expect(page.getByTestId("presence-step")).toBeVisible();
    const first = (await screen.getAttribute("data-item-id"))!;
    const second = ((await (await claimedAhead).json()) as { itemId: string }).itemId;

    await page.route("**/submit", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "The server is restarting." } }),
      }),
    );
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    const targets = page.getByTestId("target");
    for (const [i, digit] of ["3", "4", "1", "6"].entries()) {
      if (i > 0) await page.keyboard.press("j");
      await page.keyboard.press(digit);
    }
    await page.keyboard.press("Enter");
    await expect(screen).toHaveAttribute("data-item-id", second);
    const failed = page.getByTestId("submit-failed");
    await expect(failed).toContainText("Your item 1 was not submitted");

    await page.unroute("**/submit");
    await failed.getByRole("button", { name: "Go back to it" }).click();
    await expect(screen).toHaveAttribute("data-item-id", first);
    // Back on the grading step, with s2 still present and the values typed.
    await expect(page.getByTestId("presence-summary")).toContainText("Present: s2 · the judge also says: s1");
    await expect(targets.getByTestId("my-value")).toHaveText(["3", "4", "1", "6"]);
    await page.keyboard.press("Enter");
    await expect(screen).toHaveAttribute("data-item-id", second);
    const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });
    await expect
      .poll(async () =>
        (
          await prisma.humanJudgment.findMany({
            where: { reviewerId: reviewerUser.id, targetType: "presence" },
            select: { target: true, value: true },
          })
        )
          .map((j) => `${j.target}=${j.value}`)
          .sort(),
      )
      .toEqual(["d1=0", "s1=0", "s2=1"]);
  } finally {
    await prisma.$disconnect();
  }
});

// Presence toggles typed and not submitted survive a reload (kept in the browser, keyed by reviewer and item); once
// the item is submitted the draft is gone, and the next item opens on its own answers.
test("presence toggles not yet submitted survive a reload and are dropped once submitted", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { prisma, projectId, reviewer, queueId } = await seedPresenceQueue(request, "presence-draft", 2);
  try {
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    const screen = page.getByTestId("review-screen");
    const categories = page.getByTestId("presence-category");
    await expect(page.getByTestId("presence-step")).toBeVisible();
    const first = (await screen.getAttribute("data-item-id"))!;

    await page.keyboard.press("2");
    await page.keyboard.press("3");
    await expect(categories.getByTestId("presence-mine")).toHaveText(["absent", "present", "present"]);
    await page.reload();
    await expect(screen).toHaveAttribute("data-item-id", first);
    await expect(categories.getByTestId("presence-mine")).toHaveText(["absent", "present", "present"]);
    const drafts = () =>
      page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("framejury:presence-draft")));
    expect(await drafts()).toHaveLength(1);

    // 3 again takes d1 back; then grade s1 and s2 at both key frames and submit.
    await page.keyboard.press("3");
    await expect(categories.getByTestId("presence-mine")).toHaveText(["absent", "present", "absent"]);
    await page.keyboard.press("Enter");
    for (const [i, digit] of ["3", "4", "1", "6"].entries()) {
      if (i > 0) await page.keyboard.press("j");
      await page.keyboard.press(digit);
    }
    await page.keyboard.press("Enter");
    await expect(screen).not.toHaveAttribute("data-item-id", first);
    const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });
    await expect
      .poll(() => prisma.humanJudgment.count({ where: { reviewerId: reviewerUser.id, targetType: "presence" } }))
      .toBe(3);
    await expect.poll(drafts).toEqual([]);

    // The next item, reloaded: its own (empty) answers, nothing carried over from the first.
    await page.reload();
    await expect(page.getByTestId("presence-step")).toBeVisible();
    await expect(screen).not.toHaveAttribute("data-item-id", first);
    await expect(categories.getByTestId("presence-mine")).toHaveText(["absent", "absent", "absent"]);
    expect(await drafts()).toEqual([]);
  } finally {
    await prisma.$disconnect();
  }
});
