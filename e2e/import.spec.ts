import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// A generated VBench-2.0-style folder: <model>/<Dimension>/<prompt[:180]>-<index>.mp4, a prompt
// list, and one corrupt file among the good ones.
const prompt = "A heavy iron ball is dropped onto a soft pillow, which sinks deeply under its weight";
let root: string;

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-import-"));
  const folder = path.join(root, "Sora");
  fs.mkdirSync(path.join(folder, "Mechanics"), { recursive: true });
  fs.mkdirSync(path.join(folder, "prompt"), { recursive: true });
  fs.writeFileSync(
    path.join(folder, "prompt", "Mechanics.txt"),
    `${prompt}\nA glass of water is knocked over on a wooden table.\n`,
  );
  const make = (out: string, source: string) =>
    execFileSync("ffmpeg", [
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      source,
      "-t",
      "3",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
      "-movflags",
      "+faststart",
      out,
    ]);
  // Distinct scenes over time so key frames have something to pick between.
  make(path.join(folder, "Mechanics", `${prompt}-0.mp4`), "testsrc2=size=320x240:rate=24");
  make(path.join(folder, "Mechanics", `${prompt}-1.mp4`), "mandelbrot=size=320x240:rate=24");
  const good = fs.readFileSync(path.join(folder, "Mechanics", `${prompt}-0.mp4`));
  fs.writeFileSync(
    path.join(folder, "Mechanics", `${prompt}-2.mp4`),
    Buffer.concat([good.subarray(0, 2000), Buffer.alloc(4000, 7)]),
  );
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("imports a VBench-style folder: good videos get key frames and clusters, the corrupt one shows its error", async ({
  page,
}) => {
  const owner = await ownerWithProject("import");
  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${owner.projectId}/import`);
  await page.getByTestId("folder-input").setInputFiles(path.join(root, "Sora"));

  await expect(page.getByTestId("import-item")).toHaveCount(4);
  // The dry run of the prompt list against the videos already in the project, asked once the import ends.
  const metadataPlan = page.waitForResponse(
    (response) => response.url().endsWith(`/api/v1/projects/${owner.projectId}/videos/metadata`),
    { timeout: 120_000 },
  );
  await page.getByRole("button", { name: "Start import" }).click();

  const item = (suffix: string) => page.locator(`[data-testid="import-item"][data-path$="${suffix}"]`);
  await expect(item("prompt/Mechanics.txt")).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect(item("-0.mp4")).toHaveAttribute("data-state", "done", { timeout: 60_000 });
  await expect(item("-1.mp4")).toHaveAttribute("data-state", "done", { timeout: 60_000 });
  await expect(item("-2.mp4")).toHaveAttribute("data-state", "error", { timeout: 60_000 });
  await expect(item("-2.mp4").getByTestId("import-item-message")).toContainText(
    /damaged|truncated|corrupt|not a video/i,
  );
  await expect(item("-0.mp4").getByTestId("import-item-message")).toContainText("key frames");
  // Issue 38 §5.11: a summary once the import ends, the bar in the outcome's colour (one file failed: amber), and
  // no "Metadata for videos already in the project" box after a fresh upload (the prompt list went with the videos).
  await expect(page.getByTestId("import-finished")).toHaveText("Import finished. 3 imported, 0 skipped, 1 failed.");
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-tone", "warning");
  expect((await metadataPlan).status()).toBe(200);
  await expect(page.getByTestId("existing-videos-metadata")).toHaveCount(0);

  // The corrupt file alone: nothing is imported, and the bar and the summary say so instead of a full bar in the running colour.
  await page.reload();
  await page.getByTestId("file-input").setInputFiles(path.join(root, "Sora", "Mechanics", `${prompt}-2.mp4`));
  await expect(page.getByTestId("import-item")).toHaveCount(1);
  await expect(page.getByTestId("import-finished")).toHaveCount(0);
  await page.getByRole("button", { name: "Start import" }).click();
  await expect(page.getByTestId("import-finished")).toContainText("Import finished: nothing was imported.", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("import-finished")).toContainText("0 imported, 0 skipped, 1 failed");
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-tone", "failure");

  // Only the two good videos were stored.
  await page.goto(`/projects/${owner.projectId}/videos`);
  await expect(page.getByTestId("video-row")).toHaveCount(2);
  await page.getByRole("link", { name: `${prompt}-0.mp4` }).click();
  await expect(page.getByTestId("video-prompt")).toHaveText(prompt);
  await expect(page.getByTestId("video-status")).toHaveText("ready");
  const clusters = page.getByTestId("cluster");
  expect(await clusters.count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("key-frame").first()).toBeVisible();
  expect(await page.getByTestId("cluster-frame").count()).toBeGreaterThan(0);
  // Frames are served: the first key frame image decoded in the browser.
  const width = await page
    .getByTestId("key-frame")
    .first()
    .evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
  expect(width).toBe(320);
});
