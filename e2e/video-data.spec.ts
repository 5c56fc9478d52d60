import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";
import { insertJudgment } from "../testkit/testing/judgments";

// Fixing data after import: an owner gives a prompt to a video imported without one (the change is in
// its history), then deletes two videos from the list's selection after a confirmation that counts
// what goes with them (frames, a reviewer's judgment), and their stored files are gone. A viewer
// sees neither the editor nor the selection.

async function seed(ownerEmail: string, reviewerEmail: string, projectId: string) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { getStorage, frameKey } = await import("../lib/storage/storage");
  const storage = getStorage();
  const owner = await prisma.user.findUniqueOrThrow({ where: { email: ownerEmail } });
  const reviewer = await prisma.user.findUniqueOrThrow({ where: { email: reviewerEmail } });
  const ids: string[] = [];
  const keys: string[] = [];
  for (const name of ["11.mp4", "12.mp4", "13.mp4"]) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const storageKey = `projects/${projectId}/videos/${sha}.mp4`;
    await storage.put(storageKey, Buffer.from(`not really a video ${sha}`));
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 10n,
        fileName: name,
        relativePath: `clips/${name}`,
        storageKey,
        contentType: "video/mp4",
        status: "ready",
        dimensions: [],
        createdById: owner.id,
      },
    });
    ids.push(video.id);
    keys.push(storageKey);
  }
  // 12.mp4 has a frame set of three frames and a reviewer's verdict.
  const frameSet = await prisma.frameSet.create({
    data: {
      videoId: ids[1]!,
      identity: randomUUID(),
      parameters: {},
      mode: "uniform",
      frameCount: 3,
      keyFrameCount: 3,
      createdById: owner.id,
    },
  });
  for (let index = 0; index < 3; index++) {
    const key = frameKey(projectId, frameSet.id, index);
    const stored = await storage.put(key, Buffer.from(`frame ${index} ${frameSet.id}`));
    await prisma.frame.create({
      data: {
        frameSetId: frameSet.id,
        index,
        timestampS: index,
        isKeyFrame: true,
        storageKey: key,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        width: 8,
        height: 8,
      },
    });
    keys.push(key);
  }
  await insertJudgment(prisma, {
    projectId,
    videoId: ids[1]!,
    reviewerId: reviewer.id,
    targetType: "verdict",
    target: "verdict",
    value: 1,
  });
  return { ids, keys, storage, prisma };
}

test("an owner edits a video's prompt and deletes videos from the list's selection after counted confirmation; a viewer sees neither", async ({
  page,
  browser,
}) => {
  const owner = await ownerWithProject("videodata");
  const reviewerEmail = `videodata-reviewer-${Date.now()}@example.test`;
  const viewerEmail = `videodata-viewer-${Date.now()}@example.test`;
  await cli("create-user", "--email", reviewerEmail, "--password", "reviewer-password-1");
  await cli("create-user", "--email", viewerEmail, "--password", "viewer-password-1");
  await cli("add-member", "--project", owner.projectId, "--email", reviewerEmail, "--role", "reviewer");
  await cli("add-member", "--project", owner.projectId, "--email", viewerEmail, "--role", "viewer");
  const { ids, keys, storage, prisma } = await seed(owner.email, reviewerEmail, owner.projectId);

  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${owner.projectId}/videos/${ids[0]}`);
  await expect(page.getByTestId("video-prompt")).toContainText("no prompt");
  await page.getByTestId("edit-video-fields").click();
  await page.getByTestId("edit-prompt").fill("A dog runs along a beach at sunset");
  await page.getByTestId("edit-model").fill("Kling");
  await page.getByTestId("save-video-fields").click();
  await expect(page.getByTestId("video-prompt")).toHaveText("A dog runs along a beach at sunset");
  await page.getByTestId("video-edit-history").locator("summary").click();
  await expect(page.getByTestId("video-edit")).toHaveCount(1);
  await expect(page.getByTestId("video-edit")).toContainText("prompt: — → A dog runs along a beach at sunset");
  expect((await prisma.video.findUniqueOrThrow({ where: { id: ids[0]! } })).prompt).toBe(
    "A dog runs along a beach at sunset",
  );

  await page.goto(`/projects/${owner.projectId}/videos`);
  await expect(page.getByTestId("video-row")).toHaveCount(3);
  await page.getByRole("checkbox", { name: "select 12.mp4" }).check();
  await page.getByRole("checkbox", { name: "select 13.mp4" }).check();
  await expect(page.getByTestId("selected-count")).toHaveText("2 selected");
  await page.getByTestId("delete-selected").click();
  const dialog = page.getByTestId("delete-videos-dialog");
  await expect(dialog.getByTestId("delete-counts")).toContainText(
    "2 videos with 1 frame set and 3 frames (5 stored files removed from storage)",
  );
  await expect(dialog.getByTestId("delete-counts")).toContainText("1 human judgment");
  await dialog.getByTestId("confirm-delete-videos").click();
  await expect(page.getByTestId("delete-done")).toHaveText("Deleted 2 videos.");
  await expect(page.getByTestId("video-row")).toHaveCount(1);
  await expect(page.getByTestId("video-link")).toHaveText("11.mp4");
  expect(await prisma.humanJudgment.count({ where: { projectId: owner.projectId } })).toBe(0);
  for (const key of keys.slice(1)) expect(await storage.stat(key)).toBeNull();
  expect(await storage.stat(keys[0]!)).not.toBeNull();

  const viewer = await browser.newPage();
  await signIn(viewer, viewerEmail, "viewer-password-1");
  await viewer.goto(`/projects/${owner.projectId}/videos/${ids[0]}`);
  await expect(viewer.getByTestId("video-prompt")).toHaveText("A dog runs along a beach at sunset");
  await expect(viewer.getByTestId("edit-video-fields")).toHaveCount(0);
  await expect(viewer.getByTestId("delete-video")).toHaveCount(0);
  await viewer.goto(`/projects/${owner.projectId}/videos`);
  await expect(viewer.getByTestId("video-row")).toHaveCount(1);
  await expect(viewer.getByTestId("video-select")).toHaveCount(0);
  await expect(viewer.getByTestId("delete-selected")).toHaveCount(0);
  await viewer.close();
});
