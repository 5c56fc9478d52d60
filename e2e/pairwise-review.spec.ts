import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";
import { clipSize } from "../testkit/testing/frame-fingerprint";
import { sharedDataPath } from "../testkit/testing/shared-data";

// Pairwise review side by side (issue 66 §2), in Chromium, on the real clips of ../shared/samples: a reviewer reviews
// a blind pair set by keyboard and by mouse, a reload shows the same pair with the same sides, the page never names a
// generator, and while both players play the drift the screen measures between them (data-drift-* on the players'
// container, in frames of the leader) stays within one frame at p95.

const CLIPS = ["t2vhalubench-12.mp4", "t2vhalubench-31.mp4", "t2vhalubench-5.mp4"] as const;
const GENERATORS = ["HiddenGenOne", "HiddenGenTwo", "HiddenGenThree"];
test.use({ viewport: { width: 1400, height: 1400 } });

/** A sample clip: ../shared/samples, or SHARED_SAMPLES_DIR where the checkout has no shared/ beside it. */
function samplePath(clip: string): string {
  const dir = process.env.SHARED_SAMPLES_DIR;
  return dir ? path.join(dir, clip) : sharedDataPath(`samples/${clip}`);
}

async function seed() {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { getStorage } = await import("../lib/storage/storage");
  const { seedReviewPairs } = await import("../testkit/pairwise/review-pairs");
  const storage = getStorage();
  const owner = await ownerWithProject("pair-review-owner");
  const ownerRow = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const ids: string[] = [];
  for (const [index, clip] of CLIPS.entries()) {
    const file = samplePath(clip);
    const bytes = fs.readFileSync(file);
    const sha = createHash("sha256").update(bytes).digest("hex");
    const storageKey = `projects/${owner.projectId}/videos/${sha}.mp4`;
    await storage.put(storageKey, bytes);
    const { width, height } = clipSize(file);
    const video = await prisma.video.create({
      data: {
        projectId: owner.projectId,
        sha256: sha,
        sizeBytes: BigInt(bytes.length),
        fileName: clip,
        relativePath: `${GENERATORS[index]}/${clip}`,
        storageKey,
        contentType: "video/mp4",
        status: "ready",
        prompt: "A sample clip",
        model: GENERATORS[index],
        durationS: clip === "t2vhalubench-5.mp4" ? 8 : 208 / 24,
        fps: clip === "t2vhalubench-5.mp4" ? 30 : 24,
        width,
        height,
        createdById: ownerRow.id,
      },
    });
    ids.push(video.id);
  }
  const video = (i: number) => ({ id: ids[i]!, model: GENERATORS[i]!, prompt: "A sample clip" });
  // The first pair is two 24 fps clips (the drift is measured there); then the others.
  const { set } = await seedReviewPairs(
    prisma,
    { userId: ownerRow.id, email: ownerRow.email, name: ownerRow.name, isAdmin: false },
    owner.projectId,
    { videos: [video(0), video(1), video(1), video(2), video(2), video(0)], blind: true },
  );
  const reviewer = { email: `pair-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
  await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
  await cli("add-member", "--project", owner.projectId, "--email", reviewer.email, "--role", "reviewer");
  const reviewerRow = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });
  return { prisma, projectId: owner.projectId, setId: set.id, reviewer, reviewerId: reviewerRow.id };
}

/** Samples the players' measured drift (frames) while both play, until `count` samples are in. */
async function driftWhilePlaying(page: Page, count: number): Promise<{ p95: number; max: number; samples: number }> {
  const players = page.getByTestId("synced-players");
  await expect
    .poll(async () => Number((await players.getAttribute("data-drift-samples")) ?? 0), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(count);
  return {
    p95: Number(await players.getAttribute("data-drift-p95")),
    max: Number(await players.getAttribute("data-drift-max")),
    samples: Number(await players.getAttribute("data-drift-samples")),
  };
}

const pairShown = async (page: Page) => ({
  pairId: await page.getByTestId("pair-review").getAttribute("data-pair-id"),
  aSide: await page.getByTestId("pair-review").getAttribute("data-a-side"),
  left: await page.getByTestId("video-left").getAttribute("data-video-id"),
});

test("a reviewer reviews a blind pair set side by side by keyboard and mouse, sides kept, players in sync", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { prisma, projectId, setId, reviewer, reviewerId } = await seed();
  await signIn(page, reviewer.email, reviewer.password);
  await page.goto(`/projects/${projectId}/pairs/${setId}/review`);
  await expect(page.getByTestId("pair-progress")).toHaveText("0 of 3 pairs");
  const first = await pairShown(page);
  expect(first.pairId).toBeTruthy();
  // Blind: no generator anywhere in the page.
  const html = await page.content();
  for (const generator of GENERATORS) expect(html).not.toContain(generator);

  // A reload shows the same pair with the same sides.
  await page.reload();
  await expect(page.getByTestId("pair-review")).toBeVisible();
  expect(await pairShown(page)).toEqual(first);

  // Both players play together: the measured drift stays within one frame at p95.
  // Both players have the start of their clip before it starts (a player still loading is not yet in play).
  for (const side of ["left", "right"])
    await expect
      .poll(() => page.getByTestId(`video-${side}`).evaluate((video: HTMLVideoElement) => video.readyState))
      .toBeGreaterThanOrEqual(3);
  await page.keyboard.press(" ");
  // 120 frames (5 s of the 8.7 s clips): the start, when the second player begins a little later, is part of it.
  const drift = await driftWhilePlaying(page, 120);
  console.log(`[pairwise-review] drift over ${drift.samples} frames: p95 ${drift.p95}, max ${drift.max} frames`);
  expect(drift.p95).toBeLessThanOrEqual(1);
  await page.keyboard.press(" ");

  // Keyboard: 1 = left better on the first aspect, 4 = both bad on the second, Enter submits.
  await page.keyboard.press("1");
  await page.keyboard.press("4");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("pair-progress")).toHaveText("1 of 3 pairs");
  const firstVerdicts = await prisma.pairVerdict.findMany({
    where: { pairId: first.pairId!, raterId: reviewerId },
    orderBy: { aspect: "asc" },
  });
  expect(firstVerdicts.map((v) => [v.aspect, v.verdict, v.aShownOn])).toEqual([
    ["overall", first.aSide === "left" ? "A" : "B", first.aSide],
    ["text_alignment", "tie_bad", first.aSide],
  ]);

  // Mouse: right better on the first aspect, both good on the second, the Submit button.
  const second = await pairShown(page);
  expect(second.pairId).not.toBe(first.pairId);
  const rows = page.getByTestId("aspect");
  await rows.nth(0).getByTestId("choose-right").click();
  await rows.nth(1).getByTestId("choose-tie_good").click();
  await page.getByTestId("submit-pair").click();
  await expect(page.getByTestId("pair-progress")).toHaveText("2 of 3 pairs");
  const secondVerdicts = await prisma.pairVerdict.findMany({
    where: { pairId: second.pairId!, raterId: reviewerId },
    orderBy: { aspect: "asc" },
  });
  expect(secondVerdicts.map((v) => v.verdict)).toEqual([second.aSide === "right" ? "A" : "B", "tie_good"]);

  // The last pair by keyboard, then the done state.
  await page.keyboard.press("3");
  await page.keyboard.press("3");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("review-done")).toBeVisible();
  await expect(page.getByTestId("pair-progress")).toHaveText("3 of 3 pairs reviewed.");
  const done = await prisma.pairAssignment.count({ where: { pairSetId: setId, reviewerId, status: "done" } });
  expect(done).toBe(3);
});

test("a honeypot pair's video B is video A drawn broken: frozen, shuffled, corrupted", async ({ page }) => {
  test.setTimeout(180_000);
  const { prisma, projectId, reviewer } = await seed();
  const { seedReviewPairs } = await import("../testkit/pairwise/review-pairs");
  const ownerProject = await prisma.project.findUniqueOrThrow({
    where: { id: projectId },
    include: { members: { where: { role: "owner" }, include: { user: true } } },
  });
  const ownerUser = ownerProject.members[0]!.user;
  const videos = await prisma.video.findMany({ where: { projectId }, orderBy: { fileName: "asc" } });
  const clip = (i: number) => ({ id: videos[i]!.id, model: videos[i]!.model!, prompt: "A sample clip" });
  const kinds = ["frozen", "shuffled", "corrupted"] as const;
  const { set } = await seedReviewPairs(
    prisma,
    { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false },
    projectId,
    { videos: [clip(0), clip(1), clip(1), clip(0), clip(0), clip(2)], honeypots: kinds.map((kind) => ({ kind })) },
  );
  await signIn(page, reviewer.email, reviewer.password);
  await page.goto(`/projects/${projectId}/pairs/${set.id}/review`);
  for (const kind of kinds) {
    await expect(page.getByTestId("pair-review")).toBeVisible();
    const aSide = (await page.getByTestId("pair-review").getAttribute("data-a-side"))!;
    const bSide = aSide === "left" ? "right" : "left";
    const a = page.getByTestId(`video-${aSide}`);
    const b = page.getByTestId(`video-${bSide}`);
    // B plays A's own file: nothing on the page says which pair is the test.
    expect(await b.getAttribute("src")).toBe(await a.getAttribute("src"));
    await page.keyboard.press(" ");
    await expect.poll(() => a.evaluate((video: HTMLVideoElement) => video.currentTime)).toBeGreaterThan(1.5);
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      times.push(await b.evaluate((video: HTMLVideoElement) => video.currentTime));
      await page.waitForTimeout(100);
    }
    if (kind === "frozen") expect(times.every((t) => t === 0)).toBe(true);
    if (kind === "shuffled") {
      const jumps = times.slice(1).filter((t, i) => t < times[i]! || t - times[i]! > 0.5);
      expect(jumps.length).toBeGreaterThan(0);
    }
    if (kind === "corrupted") {
      const canvas = page.getByTestId(`player-${bSide}`).locator("canvas");
      await expect(canvas).toBeVisible();
      expect(await canvas.evaluate((element: HTMLCanvasElement) => element.width)).toBeGreaterThan(0);
    }
    await page.keyboard.press(" ");
    await page.keyboard.press("3");
    await page.keyboard.press("3");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("pair-review").or(page.getByTestId("review-done"))).toBeVisible();
    await expect(page.getByTestId("pair-progress")).toContainText(`${kinds.indexOf(kind) + 1} of 3 pairs`);
  }
  await expect(page.getByTestId("review-done")).toBeVisible();
});

test("a reviewer marks where on a blind pair's video: the span is that video's, and no answer names a generator", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { prisma, projectId, setId, reviewer, reviewerId } = await seed();
  await prisma.project.update({
    where: { id: projectId },
    data: { spanLabels: [{ id: "physics", label: "Physics breaks", definition: "" }] },
  });
  // Every text answer the browser gets (the pair, the spans, the frame times) is checked for generator names.
  const texts: Promise<string>[] = [];
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (/json|text|html/.test(type)) texts.push(response.text().catch(() => ""));
  });
  await signIn(page, reviewer.email, reviewer.password);
  await page.goto(`/projects/${projectId}/pairs/${setId}/review`);
  await expect(page.getByTestId("pair-review")).toBeVisible();
  const shown = await pairShown(page);

  await page.getByRole("button", { name: "Left video" }).click();
  const editor = page.getByTestId("pair-span-editor");
  await expect(editor).toHaveAttribute("data-side", "left");
  await expect(editor.getByTestId("span-timeline")).toBeVisible();
  // Into the editor (its keys act while focus is inside): `s` saves a span of the frame at the playhead.
  await editor.getByTestId("span-workbench").focus();
  await page.keyboard.press("s");
  await expect.poll(() => prisma.span.count({ where: { projectId, authorId: reviewerId, withdrawn: false } })).toBe(1);
  const span = await prisma.span.findFirstOrThrow({ where: { projectId, authorId: reviewerId } });
  expect([span.videoId, span.task, span.label]).toEqual([shown.left, "project", "physics"]);
  // `s` saved and did not swap; after Esc the pair's keys are back: `s` swaps, and the editor follows its video.
  expect(await page.getByTestId("pair-review").getAttribute("data-a-side")).toBe(shown.aSide);
  await page.keyboard.press("Escape");
  await page.keyboard.press("s");
  await expect(page.getByTestId("pair-review")).not.toHaveAttribute("data-a-side", shown.aSide!);
  await expect(editor).toHaveAttribute("data-side", "right");
  await page.screenshot({ path: test.info().outputPath("pair-spans.png"), fullPage: true });

  for (const text of await Promise.all(texts))
    for (const generator of GENERATORS) expect(text).not.toContain(generator);
});
