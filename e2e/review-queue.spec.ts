import { expect, test, type Response } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// A blind review session done with the keyboard alone: after the one page.goto, every action is a
// key press. The judge's values must be absent from the DOM and from every API response while the
// reviewer's item is unsubmitted, and appear once they submit.
const JUDGE_S1 = 7.25;
const JUDGE_S2 = 3.75;
const JUDGE_OVERALL = 61.5;
const DISTINCTIVE = [JUDGE_S1, JUDGE_S2, JUDGE_OVERALL];

/** Every number and key anywhere in a JSON value. */
function numbersAndKeys(value: unknown, out: { numbers: number[]; keys: string[] } = { numbers: [], keys: [] }) {
  if (Array.isArray(value)) value.forEach((v) => numbersAndKeys(v, out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.keys.push(k);
      numbersAndKeys(v, out);
    }
  else if (typeof value === "number") out.numbers.push(value);
  return out;
}

test("a reviewer works through a blind queue with the keyboard only; judge values appear only after submitting", async ({
  page,
  request,
  baseURL,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  try {
    const owner = await ownerWithProject("queue-owner");
    const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false },
      { videoCount: 3, keyFrames: 1, name: "Blind review" },
    );
    const reviewer = { email: `queue-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
    const viewerEmail = `queue-viewer-${Date.now()}@example.test`;
    await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
    await cli("create-user", "--email", viewerEmail, "--password", "viewer-password-1");
    await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
    await cli("add-member", "--project", projectId, "--email", viewerEmail, "--role", "viewer");

    // A finished run with distinctive judge values: s1 = 7.25 and s2 = 3.75 on the key frame, overall 61.5.
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
          output: { scores: { s1: JUDGE_S1, s2: JUDGE_S2 } },
        },
      });
      await prisma.score.createMany({
        data: [
          {
            runId: run.id,
            videoId,
            stepResultId: step.id,
            stepId: "static_hallucination",
            scopeIndex: 0,
            category: "s1",
            value: JUDGE_S1,
          },
          {
            runId: run.id,
            videoId,
            stepResultId: step.id,
            stepId: "static_hallucination",
            scopeIndex: 0,
            category: "s2",
            value: JUDGE_S2,
          },
        ],
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

    // The owner creates a blind queue of the run's s1/s2 scores through the API.
    const ownerKey = await cli("create-api-key", "--email", owner.email);
    const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
      headers: { authorization: `Bearer ${ownerKey.trim()}` },
      data: {
        name: "Blind s1/s2",
        filter: { prompt: "ramp" },
        scope: "scores",
        categories: ["s1", "s2"],
        reviewersPerItem: 1,
        blind: true,
      },
    });
    expect(created.status()).toBe(201);
    const { id: queueId } = (await created.json()) as { id: string };

    // Record every API response the reviewer's browser receives.
    const apiBodies: { url: string; body: unknown }[] = [];
    const pending: Promise<void>[] = [];
    page.on("response", (response: Response) => {
      if (!response.url().includes("/api/") || !(response.headers()["content-type"] ?? "").includes("application/json"))
        return;
      pending.push(
        response.json().then(
          (body: unknown) => void apiBodies.push({ url: response.url(), body }),
          () => {},
        ),
      );
    });

    // Sign in through the auth API (no page visit), then the one and only page.goto.
    const signedIn = await page.request.post("/api/auth/sign-in/email", {
      data: reviewer,
      headers: { origin: baseURL! },
    });
    expect(signedIn.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(page.getByTestId("queue-name")).toHaveText("Blind s1/s2");
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");

    const screen = page.getByTestId("review-screen");
    const targets = page.getByTestId("target");
    await expect(screen).toBeVisible();
    const first = await screen.getAttribute("data-item-id");
    await expect(page.getByTestId("blind-badge")).toContainText("hidden until you submit");
    await expect(page.getByTestId("judge-hidden")).toHaveCount(2);
    await expect(page.getByTestId("judge-value")).toHaveCount(0);
    expect(await page.content()).not.toContain(String(JUDGE_S1));
    await expect(page.getByTestId("shortcut-help")).toContainText("Enter");
    await page.keyboard.press("?");
    await expect(page.getByTestId("shortcut-help-overlay")).toContainText("type 1 then 0 within 600 ms");

    // Accepting the judge's value is refused in blind mode.
    await page.keyboard.press("a");
    await expect(page.getByTestId("status-message")).toContainText("Blind queue");
    // Enter with nothing judged: the server names what is missing.
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("status-message")).toContainText("missing: s1 · key frame 1, s2 · key frame 1");

    // 10 on the first target, 3 on the second, a note on the second.
    await page.keyboard.press("1");
    await page.keyboard.press("0");
    await expect(targets.nth(0).getByTestId("my-value")).toHaveText("10");
    await page.keyboard.press("j");
    await expect(targets.nth(1)).toHaveAttribute("data-focused", "true");
    await page.keyboard.press("3");
    await expect(targets.nth(1).getByTestId("my-value")).toHaveText("3");
    await page.keyboard.press("m");
    await expect(targets.nth(1).getByTestId("note-input")).toBeFocused();
    await page.keyboard.type("ramp wobbles, j and k typed here stay text");
    await page.keyboard.press("Escape");
    await expect(targets.nth(1).getByTestId("note-input")).not.toBeFocused();
    await expect(targets.nth(1)).toHaveAttribute("data-focused", "true");
    await expect(targets.nth(1).getByTestId("my-value")).toHaveText("3");
    await page.keyboard.press("k");
    await expect(targets.nth(0)).toHaveAttribute("data-focused", "true");

    // Enter submits; the judge's values show beside the reviewer's, marked where they agree, until Enter goes on to a
    // new item, still blind.
    await page.keyboard.press("Enter");
    // 10 against 7.25 is at least the targets' gap of 2 apart; 3 against 3.75 is not.
    await expect(page.getByTestId("reveal-summary")).toContainText("you agree on 1 of 2 targets");
    await expect(page.getByTestId("judge-value")).toHaveText([String(JUDGE_S1), String(JUDGE_S2)]);
    await expect(page.getByTestId("agreement")).toHaveText(["differ", "agree"]);
    await expect(page.getByTestId("item-position")).toHaveText("your item 1 of 1 · submitted");
    await page.keyboard.press("Enter");
    await expect(screen).not.toHaveAttribute("data-item-id", first!);
    const second = await screen.getAttribute("data-item-id");
    await expect(page.getByTestId("judge-hidden")).toHaveCount(2);
    await expect(page.getByTestId("my-count")).toHaveText("you: 1 submitted");
    await page.keyboard.press("4");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("5");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reveal-summary")).toBeVisible();
    // ] goes on as Enter does.
    await page.keyboard.press("]");
    await expect(screen).not.toHaveAttribute("data-item-id", second!);
    const third = await screen.getAttribute("data-item-id");
    expect(new Set([first, second, third]).size).toBe(3);
    await expect(page.getByTestId("judge-hidden")).toHaveCount(2);
    await expect(page.getByTestId("my-count")).toHaveText("you: 2 submitted");
    await expect(page.getByTestId("queue-progress")).toContainText("2 of 3 items complete");
    expect(await page.content()).not.toContain(String(JUDGE_S1));
    // ] on an unsubmitted item does not skip it.
    await page.keyboard.press("]");
    await expect(page.getByTestId("status-message")).toContainText("Submit this item");

    // Back to the submitted items: now the judge's values stand beside the reviewer's.
    await page.keyboard.press("[");
    await expect(screen).toHaveAttribute("data-item-id", second!);
    await expect(page.getByTestId("judge-value")).toHaveText([String(JUDGE_S1), String(JUDGE_S2)]);
    await expect(page.getByTestId("my-value")).toHaveText(["4", "5"]);
    await expect(page.getByTestId("judge-hidden")).toHaveCount(0);
    await page.keyboard.press("ArrowLeft");
    await expect(screen).toHaveAttribute("data-item-id", first!);
    await expect(page.getByTestId("my-value")).toHaveText(["10", "3"]);
    await expect(page.getByTestId("judge-value")).toHaveText([String(JUDGE_S1), String(JUDGE_S2)]);
    await expect(page.getByTestId("judge-summary")).toContainText(`overall ${JUDGE_OVERALL}`);
    await expect(targets.nth(1).getByTestId("note-input")).toHaveValue("ramp wobbles, j and k typed here stay text");
    await page.keyboard.press("]");
    await expect(screen).toHaveAttribute("data-item-id", second!);
    await page.keyboard.press("ArrowRight");
    await expect(screen).toHaveAttribute("data-item-id", third!);
    await expect(page.getByTestId("judge-hidden")).toHaveCount(2);

    // No API response carried the judge's values for an item the reviewer had not submitted.
    await Promise.all(pending);
    const itemBodies = apiBodies.filter((b) => /\/api\/v1\/queues\/[^/]+\/items\/[^/]+$/.test(new URL(b.url).pathname));
    // A submission that had to claim the next item answers with it (`next`): that payload is an item body too. (Usually
    // the next item was claimed ahead and loaded while the reviewer worked on the one before: an item body already.)
    const submitted = apiBodies.filter((b) => new URL(b.url).pathname.endsWith("/submit"));
    const nextBodies = submitted.flatMap((b) =>
      (b.body as { next?: unknown }).next ? [{ url: b.url, body: (b.body as { next: unknown }).next }] : [],
    );
    // So is the item a claim ahead answers with.
    const aheadBodies = apiBodies
      .filter((b) => new URL(b.url).pathname.endsWith("/ahead"))
      .flatMap((b) =>
        (b.body as { item?: unknown }).item ? [{ url: b.url, body: (b.body as { item: unknown }).item }] : [],
      );
    expect(aheadBodies.length).toBeGreaterThanOrEqual(2);
    const blindBodies = [...itemBodies, ...nextBodies, ...aheadBodies].filter(
      (b) => (b.body as { assignment?: { status: string } }).assignment?.status === "claimed",
    );
    expect(blindBodies.length).toBeGreaterThanOrEqual(3);
    for (const { body } of blindBodies) {
      const { numbers, keys } = numbersAndKeys(body);
      expect(numbers.filter((n) => DISTINCTIVE.includes(n))).toEqual([]);
      expect(keys.filter((k) => ["judge", "judgeSummary", "judgeValue", "summary"].includes(k))).toEqual([]);
    }
    for (const { url, body } of apiBodies.filter((b) => !itemBodies.includes(b))) {
      expect(
        numbersAndKeys(body).numbers.filter((n) => DISTINCTIVE.includes(n)),
        url,
      ).toEqual([]);
    }
    expect(itemBodies.some((b) => numbersAndKeys(b.body).numbers.includes(JUDGE_S1))).toBe(true);

    // The same guarantee on the other endpoints that carry judge values, for the open item's video.
    const thirdVideo = (await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: third! } })).videoId;
    const scores = (await (await page.request.get(`/api/v1/videos/${thirdVideo}/scores`)).json()) as {
      blind: boolean;
      summary: unknown;
    };
    expect(scores).toMatchObject({ blind: true, summary: null });
    expect(numbersAndKeys(scores).numbers.filter((n) => DISTINCTIVE.includes(n))).toEqual([]);
    expect(await (await page.request.get(`/api/v1/videos/${thirdVideo}/reviews`)).json()).toMatchObject({
      blind: true,
      judgments: [],
    });

    // The run page blanks the open item's video for this reviewer (in another tab of the same session).
    const runTab = await page.context().newPage();
    await runTab.goto(`/projects/${projectId}/runs/${run.id}`);
    const rows = runTab.getByTestId("run-video");
    await expect(rows).toHaveCount(3);
    const thirdName = (await prisma.video.findUniqueOrThrow({ where: { id: thirdVideo } })).fileName;
    const blindRow = rows.filter({ hasText: thirdName });
    await expect(blindRow.getByTestId("run-video-blind")).toBeVisible();
    await expect(blindRow).not.toContainText(String(JUDGE_OVERALL));
    await expect(rows.filter({ hasNot: runTab.getByTestId("run-video-blind") })).toHaveCount(2);
    await expect(rows.filter({ hasNot: runTab.getByTestId("run-video-blind") }).first()).toContainText(
      String(JUDGE_OVERALL),
    );
    // So do the call inspector (the scoring step shows only that it ran) and the side-by-side page.
    await runTab.goto(`/projects/${projectId}/runs/${run.id}/videos/${thirdVideo}`);
    await expect(runTab.getByTestId("inspector-blind")).toBeVisible();
    await expect(runTab.getByTestId("inspector-step")).toHaveCount(1);
    await expect(runTab.getByTestId("inspector-step-hidden")).toHaveCount(1);
    await expect(runTab.locator("main")).not.toContainText(String(JUDGE_S1));
    await runTab.goto(`/projects/${projectId}/compare?videoId=${thirdVideo}`);
    await expect(runTab.getByTestId("tile-blind")).toBeVisible();
    await expect(runTab.locator("main")).not.toContainText(String(JUDGE_OVERALL));
    await runTab.close();

    // A viewer may not submit.
    const viewerKey = await cli("create-api-key", "--email", viewerEmail);
    const refused = await request.post(`/api/v1/queues/${queueId}/items/${third}/submit`, {
      headers: { authorization: `Bearer ${viewerKey.trim()}` },
      data: { judgments: [{ target: "verdict", value: 1 }] },
    });
    expect(refused.status()).toBe(403);
  } finally {
    await prisma.$disconnect();
  }
});
