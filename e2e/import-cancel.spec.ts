import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Route } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Four files, picked in this order so the two import lanes take them predictably: lane 1 the big
// file (three 8 MiB chunks), lane 2 the first small one and then `12.mp4`; the last waits.
const BIG = "Static noise fills the whole screen-0.mp4";
const FIRST = "A red ball bounces on a wooden floor-0.mp4";
const NO_PROMPT = "12.mp4";
const LAST = "a clip without an index.mp4";
const CHUNK_BYTES = 8 * 1024 * 1024;
let root: string;

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-import-cancel-"));
  const make = (name: string, args: string[]) =>
    execFileSync("ffmpeg", [
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      ...args,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      "-movflags",
      "+faststart",
      path.join(root, name),
    ]);
  // Noise at a low quantiser: about 17 MB, so the upload has a second chunk to hold back.
  make(BIG, ["-i", "nullsrc=s=640x360:r=24,geq=lum='random(1)*255':cb=128:cr=128", "-t", "2", "-qp", "4"]);
  make(FIRST, ["-i", "testsrc2=size=320x240:rate=24", "-t", "3"]);
  make(NO_PROMPT, ["-i", "mandelbrot=size=320x240:rate=24", "-t", "3"]);
  make(LAST, ["-i", "testsrc=size=320x240:rate=24", "-t", "3"]);
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("cancelling an import says per file what was stored, cancels the server's upload session, and Retry finishes only the rest", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const owner = await ownerWithProject("import-cancel");
  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${owner.projectId}/import`);

  // Hold requests so the cancel finds each file at a known point: every frame upload after the
  // first (so `12.mp4` is stored but has no frames) and the big file's second chunk.
  const held: Route[] = [];
  let frameSetsLetThrough = 1;
  await page.route(/\/api\/v1\/videos\/[^/]+\/frame-sets$/, (route) => {
    if (frameSetsLetThrough-- > 0) return route.continue();
    held.push(route);
  });
  let heldUploadId = "";
  await page.route(
    (url) => /^\/api\/v1\/uploads\/[^/]+$/.test(url.pathname) && Number(url.searchParams.get("offset") ?? 0) > 0,
    (route) => {
      heldUploadId = new URL(route.request().url()).pathname.split("/").pop()!;
      held.push(route);
    },
  );
  const sessionsFor: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.endsWith("/uploads"))
      sessionsFor.push(JSON.parse(request.postData()!).relativePath);
  });

  await page
    .getByTestId("file-input")
    .setInputFiles([BIG, FIRST, NO_PROMPT, LAST].map((name) => path.join(root, name)));
  await expect(page.getByTestId("import-item")).toHaveCount(4);
  await page.getByRole("button", { name: "Start import" }).click();

  const item = (name: string) => page.locator(`[data-testid="import-item"][data-path="${name}"]`);
  const message = (name: string) => item(name).getByTestId("import-item-message");
  await expect(item(FIRST)).toHaveAttribute("data-state", "done", { timeout: 90_000 });
  await expect(item(NO_PROMPT)).toHaveAttribute("data-state", "extracting", { timeout: 60_000 });
  await expect.poll(() => held.length, { timeout: 60_000 }).toBe(2);
  await expect(item(BIG)).toHaveAttribute("data-state", "uploading");
  await expect(item(LAST)).toHaveAttribute("data-state", "queued");

  await page.getByRole("button", { name: "Cancel" }).click();

  const bigSize = fs.statSync(path.join(root, BIG)).size;
  await expect(item(BIG)).toHaveAttribute("data-state", "cancelled");
  await expect(message(BIG)).toHaveText(
    `Upload cancelled at ${Math.floor((100 * CHUNK_BYTES) / bigSize)}%; nothing stored.`,
  );
  await expect(item(NO_PROMPT)).toHaveAttribute("data-state", "stored");
  await expect(message(NO_PROMPT)).toContainText(
    "Video stored; frames not extracted — waiting for frames (Extract pending",
  );
  await expect(message(NO_PROMPT)).toContainText("no prompt found");
  await expect(item(LAST)).toHaveAttribute("data-state", "cancelled");
  await expect(message(LAST)).toHaveText("Cancelled before upload; nothing stored.");
  await expect(item(FIRST)).toHaveAttribute("data-state", "done");
  await expect(message(FIRST)).toContainText("A red ball bounces on a wooden floor");
  const summary = page.getByTestId("import-summary");
  await expect(summary).toContainText("1 done");
  await expect(summary).toContainText("1 stored, waiting for frames");
  await expect(summary).toContainText("2 cancelled, nothing stored");
  await expect(summary).toContainText("no prompt found for 1 file");
  await expect(page.getByRole("button", { name: "Start import" })).toBeDisabled();

  // The server agrees: the big file's session was cancelled (its partial bytes dropped), and only
  // the two stored videos exist, `12.mp4` waiting for frames.
  const session = await page.request.get(`/api/v1/uploads/${heldUploadId}`);
  expect(await session.json()).toMatchObject({ status: "cancelled" });
  const listed = (await (await page.request.get(`/api/v1/projects/${owner.projectId}/videos?sort=path`)).json()) as {
    videos: { fileName: string; status: string; prompt: string | null }[];
  };
  expect(listed.videos.map((v) => [v.fileName, v.status, v.prompt])).toEqual([
    [NO_PROMPT, "pending_extraction", null],
    [FIRST, "ready", "A red ball bounces on a wooden floor"],
  ]);

  for (const route of held) await route.abort().catch(() => {});
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.getByTestId("import-retry").filter({ hasText: "Retry 3 unfinished files" }).click();
  for (const name of [BIG, NO_PROMPT, LAST])
    await expect(item(name)).toHaveAttribute("data-state", "done", { timeout: 120_000 });
  await expect(message(NO_PROMPT)).toContainText("key frames");
  await expect(message(NO_PROMPT)).toContainText("no prompt found");
  await expect(message(LAST)).toContainText("no prompt found");
  await expect(summary).toContainText("4 done");
  await expect(summary).toContainText("no prompt found for 2 files");
  await expect(page.getByTestId("import-no-prompt")).toContainText("No prompt found for 2 files");
  await expect(page.getByTestId("import-retry")).toHaveCount(0);
  // Retry only extracted the stored video's frames: it did not upload it again.
  expect(sessionsFor.slice().sort()).toEqual([BIG, BIG, FIRST, NO_PROMPT, LAST].sort());

  // The video list and the video page say "no prompt" instead of a file name posing as one.
  await page.goto(`/projects/${owner.projectId}/videos?sort=path`);
  await expect(page.getByTestId("video-row")).toHaveCount(4);
  const noPromptRow = page.getByTestId("video-row").filter({ hasText: NO_PROMPT });
  await expect(noPromptRow.getByTestId("video-prompt-cell")).toHaveText("no prompt");
  await noPromptRow.getByRole("link", { name: NO_PROMPT }).click();
  await expect(page.getByTestId("video-prompt")).toHaveText("no prompt");
  await expect(page.getByTestId("video-status")).toHaveText("ready");
});
