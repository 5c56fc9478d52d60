import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// The review workspace on the video page: a heat-map cell drives the player and the frame strip,
// the judge's knowledge graphs read as text, a reviewer's own verdict and overall are labelled and
// kept with their history (a stale save is a conflict, not an overwrite), a viewer only reads, and
// the side-by-side page shows every sample of the prompt by model.

const PROMPT = "A red ball rolls across a wooden table";
// Six frames; key frames 1 (0.4 s) and 4 (1.6 s), clusters {0,1,2} and {3,4,5}.
const TIMES = [0, 0.4, 0.8, 1.2, 1.6, 1.9];
const KEY_OF = [1, 1, 1, 4, 4, 4];

async function seed(ownerEmail: string, projectId: string) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { getStorage, frameKey } = await import("../lib/storage/storage");
  const { mediaFixtures } = await import("../testkit/testing/media-fixtures");
  const storage = getStorage();
  const media = mediaFixtures();
  const owner = await prisma.user.findUniqueOrThrow({ where: { email: ownerEmail } });

  const makeVideo = async (model: string, sampleIndex: number, withFile: boolean) => {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const storageKey = `projects/${projectId}/videos/${sha}.webm`;
    if (withFile) await storage.put(storageKey, fs.readFileSync(media.goodWebm));
    return prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: BigInt(withFile ? fs.statSync(media.goodWebm).size : 1),
        fileName: `${PROMPT}-${sampleIndex}.webm`,
        relativePath: `${model}/Mechanics/${PROMPT}-${sampleIndex}.webm`,
        storageKey,
        contentType: "video/webm",
        status: "ready",
        prompt: PROMPT,
        model,
        sampleIndex,
        dimensions: ["Mechanics"],
        durationS: 2,
        fps: 25,
        width: 320,
        height: 180,
        createdById: owner.id,
      },
    });
  };
  const video = await makeVideo("modelA", 0, true);
  await makeVideo("modelA", 1, false);
  await makeVideo("modelA", 2, false);
  await makeVideo("modelB", 0, false);
  await prisma.video.create({
    data: {
      projectId,
      sha256: randomUUID().replaceAll("-", "").padEnd(64, "1"),
      sizeBytes: BigInt(1),
      fileName: "other.webm",
      relativePath: "modelA/other-0.webm",
      storageKey: "x",
      contentType: "video/webm",
      status: "ready",
      prompt: "Another prompt",
      model: "modelA",
      sampleIndex: 0,
      createdById: owner.id,
    },
  });

  const frameSetId = randomUUID();
  await prisma.frameSet.create({
    data: {
      id: frameSetId,
      videoId: video.id,
      identity: randomUUID(),
      parameters: { mode: "density-peaks", fps: 4 },
      mode: "density-peaks",
      frameCount: 6,
      keyFrameCount: 2,
      createdById: owner.id,
    },
  });
  const jpeg = fs.readFileSync(media.jpeg);
  for (let i = 0; i < TIMES.length; i++) {
    const key = frameKey(projectId, frameSetId, i);
    const stored = await storage.put(key, Buffer.concat([jpeg, Buffer.from(`e2e-video-page-${i}`)]));
    await prisma.frame.create({
      data: {
        frameSetId,
        index: i,
        timestampS: TIMES[i]!,
        isKeyFrame: KEY_OF[i] === i,
        cluster: KEY_OF[i]!,
        storageKey: key,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        width: 64,
        height: 48,
      },
    });
  }

  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: "Vision judge",
      baseUrl: "http://127.0.0.1:9/v1",
      model: "gpt-4o-e2e",
      createdById: owner.id,
    },
  });
  const run = await prisma.judgeRun.create({
    data: {
      projectId,
      pipeline: "hallucination",
      endpointId: endpoint.id,
      status: "done",
      settings: { aggregation: "mean-max", verdict: { on: "max_category", threshold: 5 } },
      endpointSnapshot: { name: "Vision judge", model: "gpt-4o-e2e", temperature: 0, imageDetail: "auto" },
      createdById: owner.id,
      finishedAt: new Date(),
    },
  });
  await createRunVideo(prisma, {
    runId: run.id,
    videoId: video.id,
    frameSetId,
    status: "done",
    summary: { S: 2, D: 3, I: 1, overall: 66, hallucination: false, complete: true, missingInputs: 0 },
    metrics: { S: 2, D: 3, I: 1, overall: 66, verdict: false },
  });
  const hash = (n: number) => `${n}`.repeat(8) + "abcdef0123456789".repeat(3);
  const step = async (
    stepId: string,
    scopeIndex: number,
    output: unknown,
    scores: Record<string, number> = {},
    templateN = 1,
  ) => {
    const created = await prisma.stepResult.create({
      data: {
        runId: run.id,
        videoId: video.id,
        stepId,
        scopeIndex,
        status: "done",
        templateId: `hallucination/${stepId.replace("_", "-")}`,
        templateHash: hash(templateN),
        output: output as object,
        attempts: 1,
        finishedAt: new Date(),
      },
    });
    for (const [category, value] of Object.entries(scores)) {
      // The prompt inconsistency also has a logprob-weighted score (its endpoint requested logprobs).
      const expected = category === "inconsistency" ? { expected: 1.38 } : {};
      await prisma.score.create({
        data: {
          runId: run.id,
          videoId: video.id,
          stepResultId: created.id,
          stepId,
          scopeIndex,
          category,
          value,
          ...expected,
        },
      });
    }
  };
  const categories = (prefix: string, count: number, values: number[]) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i + 1}`, values[i % values.length]!]));
  for (const k of [0, 1]) {
    await step(
      "static_kg",
      k,
      {
        objects: ["red ball", "wooden table"],
        relations: [
          ["red ball", "rolls on", "wooden table"],
          ["red ball", "is", "shiny"],
        ],
      },
      {},
      1,
    );
    await step(
      "dynamic_kg",
      k,
      {
        changes: {
          "red ball": k === 0 ? "starts rolling to the right" : "melts into the table top",
          "wooden table": "unchanged",
        },
      },
      {},
      2,
    );
    await step(
      "static_hallucination",
      k,
      { scores: categories("s", 10, [1, 0, 2]), reason: "the shadow is slightly off" },
      categories("s", 10, [1, 0, 2]),
      3,
    );
    await step(
      "dynamic_hallucination",
      k,
      {
        scores: categories("d", 9, k === 0 ? [0] : [0, 6, 3]),
        reason: k === 1 ? "the ball fuses with the table" : undefined,
      },
      categories("d", 9, k === 0 ? [0] : [0, 6, 3]),
      4,
    );
  }
  await step("video_summary", 0, { summary: "A red ball rolls across a table and sinks into it." }, {}, 5);
  await step("inconsistency", 0, { score: 1, reason: "the prompt does not mention sinking" }, { inconsistency: 1 }, 6);
  await prisma.stepResult.create({
    data: {
      runId: run.id,
      videoId: video.id,
      stepId: "static_kg",
      scopeIndex: 2,
      status: "parse_failed",
      templateId: "hallucination/static-kg",
      templateHash: hash(1),
      error: "objects: expected array",
      attempts: 2,
    },
  });
  await prisma.$disconnect();
  return { videoId: video.id, runId: run.id };
}

test("the video page links heat map, player and frames; reviewers' judgments are labelled with history; side by side by model", async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = await ownerWithProject("videopage");
  const { videoId, runId } = await seed(owner.email, owner.projectId);
  const viewerEmail = `videopage-viewer-${Date.now()}@example.test`;
  await cli("create-user", "--email", viewerEmail, "--password", "viewer-password-1");
  await cli("add-member", "--project", owner.projectId, "--email", viewerEmail, "--role", "viewer");

  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${owner.projectId}/videos/${videoId}`);
  const player = page.getByTestId("player");
  await expect(player).toBeVisible();
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="player"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 1,
  );

  // A dynamic cell of cluster 2: the player goes to key frame 2 (1.6 s), its cluster lights up.
  await page
    .locator('[data-testid="score-cell"][data-step="dynamic_hallucination"][data-scope="1"][data-category="d2"]')
    .click();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(1.55);
  expect(Math.abs((await player.evaluate((v: HTMLVideoElement) => v.currentTime)) - 1.6)).toBeLessThanOrEqual(0.05);
  await expect(page.locator('[data-highlighted="true"]')).toHaveCount(3);
  expect(
    await page
      .locator('[data-highlighted="true"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-frame-index"))),
  ).toEqual(["3", "4", "5"]);
  await expect(page.getByTestId("highlight-label")).toContainText("cluster 2");
  // A static cell of key frame 1: only that key frame.
  await page
    .locator('[data-testid="score-cell"][data-step="static_hallucination"][data-scope="0"][data-category="s3"]')
    .click();
  await expect
    .poll(() =>
      page
        .locator('[data-highlighted="true"]')
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-frame-index"))),
    )
    .toEqual(["1"]);
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeLessThan(0.45);

  // The judge's outputs as text, with what produced them.
  const outputs = page.getByTestId("judge-outputs");
  await expect(outputs.getByTestId("kg-object").first()).toContainText("red ball");
  await expect(outputs.getByTestId("kg-object").first()).toContainText("is shiny");
  await expect(outputs.getByTestId("kg-relation").first()).toHaveText("red ball — rolls on — wooden table");
  await expect(outputs.getByTestId("kg-change").filter({ hasText: "melts into the table top" })).toHaveCount(1);
  await expect(outputs.getByTestId("video-summary")).toContainText(
    "A red ball rolls across a table and sinks into it.",
  );
  await expect(outputs.getByTestId("step-problem")).toContainText("parse failed");
  await expect(outputs.getByTestId("step-problem")).toContainText("objects: expected array");
  await expect(outputs.getByTestId("prompt-versions")).toContainText("hallucination/static-kg");
  await expect(outputs.getByTestId("prompt-versions")).toContainText("11111111");
  expect(await outputs.innerText()).not.toContain('{"');
  const provenance = page.getByTestId("run-provenance");
  await expect(provenance).toContainText(runId);
  await expect(provenance).toContainText("Vision judge");
  await expect(provenance).toContainText("gpt-4o-e2e");
  await expect(provenance).toContainText("mean-max");
  await expect(provenance).toContainText("hallucination when I or a category's aggregate ≥ 5");
  expect(await page.locator("main").innerText()).not.toContain('{"');

  // The owner's own verdict, with a note: labelled "You", the judge's stays, the history says who and what.
  const verdict = page.getByTestId("outcome-verdict");
  await expect(verdict.getByTestId("value-judge")).toHaveText("Judge: no");
  await verdict.getByRole("button", { name: "Give your verdict" }).click();
  await verdict.getByLabel("Your value").selectOption("1");
  await verdict.getByLabel("Note").fill("the ball melts into the table");
  await verdict.getByLabel("Reason").fill("fusion");
  await verdict.getByRole("button", { name: "Save" }).click();
  await expect(verdict.getByTestId("value-you")).toHaveText("You: yes");
  await expect(verdict.getByTestId("value-judge")).toHaveText("Judge: no");
  await expect(verdict.getByTestId("value-consensus")).toHaveText("Reviewers' consensus (1): yes");
  const entry = verdict.getByTestId("history-entry").first();
  await expect(entry).toContainText(owner.email);
  await expect(entry).toContainText("set yes");
  await expect(entry).toContainText("note: the ball melts into the table");
  await verdict.getByRole("button", { name: "Change your verdict" }).click();
  await verdict.getByLabel("Your value").selectOption("0");
  await verdict.getByRole("button", { name: "Save" }).click();
  await expect(verdict.getByTestId("value-you")).toHaveText("You: no");
  await expect(verdict.getByTestId("history-entry")).toHaveCount(2);
  await expect(verdict.getByTestId("history-entry").first()).toContainText("yes → no");

  // The overall: another session saves first, this tab's save is refused with the current value, reload, save.
  const overall = page.getByTestId("outcome-overall");
  await overall.getByRole("button", { name: "Give your overall" }).click();
  await overall.getByLabel("Your value").fill("60");
  await overall.getByRole("button", { name: "Save" }).click();
  await expect(overall.getByTestId("value-you")).toHaveText("You: 60");
  await overall.getByRole("button", { name: "Change your overall" }).click();
  const elsewhere = await page.request.put(`/api/v1/runs/${runId}/videos/${videoId}/review/overall`, {
    data: { value: 40, expectedVersion: 1 },
    headers: { origin: baseURL! },
  });
  expect(elsewhere.status()).toBe(200);
  await overall.getByLabel("Your value").fill("50");
  await overall.getByRole("button", { name: "Save" }).click();
  await expect(overall.getByTestId("review-conflict")).toContainText(
    "Changed in another tab/session: now version 2, value 40",
  );
  await overall.getByRole("button", { name: "Reload" }).click();
  await expect(overall.getByLabel("Your value")).toHaveValue("40");
  await overall.getByLabel("Your value").fill("50");
  await overall.getByRole("button", { name: "Save" }).click();
  await expect(overall.getByTestId("value-you")).toHaveText("You: 50");
  await expect(overall.getByTestId("history-entry").first()).toContainText("40 → 50");

  // A viewer sees the judgments and their history but no editing controls.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewerEmail, "viewer-password-1");
  await viewerPage.goto(`/projects/${owner.projectId}/videos/${videoId}`);
  await expect(viewerPage.getByTestId("outcome-verdict").getByTestId("value-consensus")).toHaveText(
    "Reviewers' consensus (1): no",
  );
  await expect(viewerPage.getByTestId("outcome-verdict").getByTestId("history-entry")).toHaveCount(2);
  await expect(viewerPage.getByRole("button", { name: /Give your|Change your/ })).toHaveCount(0);
  await viewerPage
    .locator('[data-testid="score-cell"][data-step="dynamic_hallucination"][data-scope="0"]')
    .first()
    .click();
  await expect(viewerPage.getByTestId("score-detail")).toBeVisible();
  await expect(viewerPage.getByTestId("review-editor")).toHaveCount(0);
  await expect(viewerPage.locator('[data-highlighted="true"]')).toHaveCount(3);
  await viewerContext.close();

  // Side by side: every sample of the prompt, by model and sample index.
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?videoId=/);
  await expect(page.getByTestId("compare-prompt")).toContainText(PROMPT);
  await expect(page.getByTestId("compare-row")).toHaveCount(2);
  await expect(
    page.locator('[data-testid="compare-row"][data-model="modelA"] [data-testid="sample-tile"]'),
  ).toHaveCount(3);
  await expect(
    page.locator('[data-testid="compare-row"][data-model="modelB"] [data-testid="sample-tile"]'),
  ).toHaveCount(1);
  const focusTile = page.locator(`[data-testid="sample-tile"][data-video-id="${videoId}"]`);
  await expect(focusTile.getByTestId("tile-judge")).toContainText("overall 66");
  await expect(focusTile.getByTestId("tile-judge")).toContainText("hallucination no");
  await expect(focusTile.getByTestId("tile-consensus")).toContainText("Reviewers' consensus (1): no");
  await expect(focusTile.getByTestId("sample-player")).toHaveAttribute("preload", "none");
  await expect(focusTile.getByTestId("sample-player")).toHaveAttribute("poster", /\/api\/v1\/frames\/.+\/image/);
  await page.getByRole("link", { name: /All samples of this prompt: modelA/ }).click();
  await expect(page.getByTestId("sample-tile")).toHaveCount(3);
  await expect(page.getByTestId("compare-row")).toHaveCount(1);
  await page.getByRole("link", { name: /This prompt across models/ }).click();
  await expect(page.getByTestId("sample-tile")).toHaveCount(4);
});

// What a reviewer needs in view: the prompt at the top beside the player; `,` / `.` step one frame (paused) with the
// time and frame number shown; the strip names the key frame at the player's time, whichever way it got there; a
// frame opens full size in an accessible lightbox with previous / next and the frames the judge saw for the score.
test("the prompt sits beside the player; , and . step frames; the strip names the current key frame; a frame opens full size", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const owner = await ownerWithProject("videopage-view");
  const { videoId } = await seed(owner.email, owner.projectId);
  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${owner.projectId}/videos/${videoId}`);
  const player = page.getByTestId("player");
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="player"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 1,
  );

  // The expected (logprob-weighted) score beside the judge's answer, where the run has one: only the prompt inconsistency's.
  await expect(page.getByTestId("expected-score")).toHaveCount(1);
  await expect(page.getByTestId("expected-score")).toHaveText("≈1.38");
  await expect(page.getByTestId("expected-score")).toHaveAttribute(
    "title",
    /expected score 1\.380.*the judge answered 1/,
  );

  // The prompt, in the first screenful, level with the player.
  const prompt = page.getByTestId("video-prompt");
  await expect(prompt).toHaveText(PROMPT);
  await expect(prompt).toBeInViewport();
  const [promptBox, playerBox] = [await prompt.boundingBox(), await player.boundingBox()];
  expect(promptBox!.y).toBeLessThan(playerBox!.y + playerBox!.height);
  expect(promptBox!.x).toBeGreaterThan(playerBox!.x + playerBox!.width);

  // Frame stepping at the video's 25 fps, paused, with the frame's time and number; the player seeks to the middle of
  // the frame (frameSeekS), so the frame shown is exactly that one.
  const time = () => player.evaluate((v: HTMLVideoElement) => v.currentTime);
  // Steps go by the frame times a worker reads once the frames are registered (here by hand: the page's ask queues
  // the job); the counter shows a time once they are in.
  await expect(page.getByTestId("frame-time")).toHaveText("0.000 s · frame 0", { timeout: 60_000 });
  await page.locator("body").press(".");
  await expect.poll(time).toBeCloseTo(0.06, 3);
  await expect(page.getByTestId("frame-time")).toHaveText("0.040 s · frame 1");
  await page.locator("body").press(".");
  await expect(page.getByTestId("frame-time")).toHaveText("0.080 s · frame 2");
  expect(await player.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await page.locator("body").press(",");
  await expect(page.getByTestId("frame-time")).toHaveText("0.040 s · frame 1");
  await page.locator("body").press(",");
  await page.locator("body").press(",");
  await expect(page.getByTestId("frame-time")).toHaveText("0.000 s · frame 0");
  expect(await time()).toBeCloseTo(0.02, 3);

  // The strip: key frame 2's frame clicked → the header and the current cluster say key frame 2; a score of key
  // frame 1 → key frame 1. Every frame of the strip is in view horizontally (it wraps instead of clipping).
  const header = page.getByTestId("strip-header");
  const clusters = page.getByTestId("cluster");
  await page.locator('[data-testid="strip-frame"][data-frame-index="5"]').click();
  await expect(header).toContainText("At key frame 2 of 2");
  await expect(clusters.nth(1)).toHaveAttribute("data-current", "true");
  await expect(clusters.nth(0)).toHaveAttribute("data-current", "false");
  await page
    .locator('[data-testid="score-cell"][data-step="static_hallucination"][data-scope="0"][data-category="s3"]')
    .click();
  await expect(header).toContainText("At key frame 1 of 2");
  await expect(clusters.nth(0)).toHaveAttribute("data-current", "true");
  const strip = page.getByTestId("key-frame-strip");
  expect(await strip.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  const stripBox = (await strip.boundingBox())!;
  for (const frame of await page.getByTestId("strip-frame").all()) {
    const box = (await frame.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(stripBox.x - 0.5);
    expect(box.x + box.width).toBeLessThanOrEqual(stripBox.x + stripBox.width + 0.5);
  }

  // The lightbox, on a dynamic score of cluster 2 (frames 3, 4, 5 seen by the judge).
  await page
    .locator('[data-testid="score-cell"][data-step="dynamic_hallucination"][data-scope="1"][data-category="d2"]')
    .click();
  await expect(page.locator('[data-highlighted="true"]')).toHaveCount(3);
  const stripWidth = (await page.locator('[data-frame-index="4"] [data-testid="key-frame"]').boundingBox())!.width;
  await page.locator('[data-testid="strip-frame"][data-frame-index="4"] + [data-testid="enlarge-frame"]').click();
  const lightbox = page.getByRole("dialog");
  await expect(lightbox).toBeVisible();
  await expect(lightbox).toHaveAttribute("data-frame-index", "4");
  const image = lightbox.getByTestId("lightbox-image");
  await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64);
  expect((await image.boundingBox())!.width).toBeGreaterThan(stripWidth * 2);
  await expect(lightbox.getByTestId("lightbox-judge-frame")).toHaveCount(3);
  await expect(lightbox.getByTestId("lightbox-seen")).toHaveText("the judge saw this frame");
  await page.screenshot({ path: "/work/shots/videoui/lightbox-1440.png" });
  await page.keyboard.press("ArrowRight");
  await expect(lightbox).toHaveAttribute("data-frame-index", "5");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(lightbox).toHaveAttribute("data-frame-index", "2");
  await expect(lightbox.getByTestId("lightbox-seen")).toHaveText("not seen by the judge for this score");
  // One of the judge's frames, a click away.
  await lightbox.getByTestId("lightbox-judge-frame").nth(0).click();
  await expect(lightbox).toHaveAttribute("data-frame-index", "3");
  // Focus stays in the dialog.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(
        () => Boolean(document.activeElement?.closest("dialog")) || document.activeElement === document.body,
      ),
    ).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.screenshot({ path: "/work/shots/videoui/video-page-1440.png", fullPage: true });
});
