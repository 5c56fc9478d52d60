import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

/*
 * Issue 39 §3 in the browser. An owner deletes a project from its settings page; the project is gone at once and the
 * projects page follows the worker's deletion to its end. A deletion no worker has taken yet is cancelled from the
 * same page, and the project comes back. A selection of more videos than a request deletes is deleted by a worker,
 * its progress in the confirmation dialog.
 */
test("an owner deletes a project and follows it on the projects page; a queued deletion is cancelled and the project is back", async ({
  page,
}) => {
  test.setTimeout(120_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { deleteProject } = await import("../lib/projects/project-deletion");
  const { projectAccess } = await import("../lib/authz/permissions");
  try {
    const owner = await ownerWithProject("deletion");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const { projectId } = await projectWithFramedVideos(prisma, actor, {
      videoCount: 4,
      keyFrames: 1,
      name: "Doomed clips",
    });

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/settings`);
    await page.getByTestId("delete-project-start").click();
    await expect(page.getByTestId("delete-project-counts")).toContainText("4 videos");
    await page.getByTestId("delete-project-name").fill("Doomed clips");
    await page.getByTestId("delete-project-confirm").click();
    await expect(page).toHaveURL(/\/$/);
    const row = page.getByTestId("project-deletion").filter({ hasText: "Doomed clips" });
    // The e2e worker (e2e/global-setup.ts) deletes it; the page follows it without a reload.
    await expect(row).toHaveAttribute("data-status", "done", { timeout: 60_000 });
    await expect(row.getByTestId("project-deletion-progress")).toContainText("4 / 4 videos");
    await expect(page.getByTestId("project-list").getByText("Doomed clips")).toHaveCount(0);
    expect(await prisma.project.count({ where: { id: projectId } })).toBe(0);

    // A deletion no worker has taken yet (its job not sent here): cancelled from the page, the project comes back.
    const kept = await projectWithFramedVideos(prisma, actor, { videoCount: 2, keyFrames: 1, name: "Kept clips" });
    await deleteProject(
      { prisma, queue: { enqueue: async () => {} } },
      await projectAccess(prisma, actor, kept.projectId, "project.delete"),
      {
        dryRun: false,
        confirmName: "Kept clips",
      },
    );
    await page.reload();
    const queued = page.getByTestId("project-deletion").filter({ hasText: "Kept clips" });
    await expect(queued.getByTestId("project-deletion-state")).toHaveText("waiting for a worker");
    await queued.getByTestId("project-deletion-cancel").click();
    await expect(queued).toHaveAttribute("data-status", "cancelled");
    await page.reload();
    await expect(page.getByTestId("project-list").getByText("Kept clips")).toBeVisible();
    await page.screenshot({ path: "test-results/project-deletion.png", fullPage: true });
  } finally {
    await prisma.$disconnect();
  }
});

test("an owner deletes more videos than a request deletes inline: the dialog follows the worker to the end", async ({
  page,
}) => {
  test.setTimeout(120_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  try {
    const owner = await ownerWithProject("many-videos");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const { projectId } = await projectWithFramedVideos(prisma, actor, {
      videoCount: 205,
      keyFrames: 1,
      name: "Many clips",
    });
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/videos?pageSize=500`);
    await expect(page.getByTestId("video-row")).toHaveCount(205);
    await page.getByTestId("select-page").check();
    await expect(page.getByTestId("selected-count")).toHaveText("205 selected");
    await page.getByTestId("delete-selected").click();
    const dialog = page.getByTestId("delete-videos-dialog");
    await expect(dialog.getByTestId("delete-counts")).toContainText("205 videos");
    await dialog.getByTestId("confirm-delete-videos").click();
    // Over 200: a worker deletes them (e2e/global-setup.ts runs one); the dialog shows its progress, then closes.
    await expect(page.getByTestId("delete-done")).toHaveText("Deleted 205 videos.", { timeout: 60_000 });
    await expect(page.getByTestId("video-row")).toHaveCount(0);
    expect(await prisma.video.count({ where: { projectId } })).toBe(0);
    const deletion = await prisma.videoDeletion.findFirstOrThrow({ where: { projectId } });
    expect(deletion).toMatchObject({ status: "done", videosDeleted: 205 });
  } finally {
    await prisma.$disconnect();
  }
});
