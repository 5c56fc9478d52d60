import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// A new user's findings on a VBench-2.0 project: the video list opens at the top, no wider than the window
// (its table of twelve dimensions scrolls in its own box), sorts names naturally, keeps a 180-character name to
// two lines; the navigation shows the project's own task and puts the others under a keyboard "More tasks" menu.
test("a VBench-2.0 project's video list and navigation bar", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { VBENCH2_TASK } = await import("../lib/tasks/vbench2/vbench2-task");
  try {
    const owner = await ownerWithProject("findings");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
      videoCount: 4,
      keyFrames: 1,
      name: "VBench only",
    });
    const longName = `${"a-generated-clip-with-a-very-long-descriptive-name-".repeat(3)}${"x".repeat(23)}.mp4`;
    expect(longName.length).toBe(180);
    for (const [i, name] of ["clip-10.mp4", "clip-2.mp4", "clip-1.mp4", longName].entries()) {
      await prisma.video.update({ where: { id: videoIds[i]! }, data: { fileName: name, relativePath: name } });
    }
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "vlm", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: user.id },
    });
    const run = await prisma.judgeRun.create({
      data: { projectId, pipeline: "vbench2", endpointId: endpoint.id, createdById: user.id, status: "done" },
    });
    const metrics = Object.fromEntries(VBENCH2_TASK.metrics.map((m) => [m.id, 1]));
    for (const videoId of videoIds)
      await createRunVideo(prisma, { runId: run.id, videoId, frameSetId: "fs", status: "done", metrics });

    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/videos`);
    const rows = page.getByTestId("video-row");
    await expect(rows).toHaveCount(4);
    // Natural order: the long name ("a-…") first, then 1, 2, 10.
    await expect(rows.getByTestId("video-link")).toHaveText([longName, "clip-1.mp4", "clip-2.mp4", "clip-10.mp4"]);
    // The page opens at its top, no wider than the window; the wide table scrolls inside its own box.
    // After hydration (the keys listen), when the row cursor's effect has run.
    await expect(page.getByTestId("video-table")).toHaveAttribute("data-keyboard", "on");
    expect(await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }))).toEqual({ x: 0, y: 0 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expect(page.getByTestId("project-nav")).toBeInViewport();
    // The long name: two lines of its column, its row not a tower.
    const longRow = (await rows.nth(0).boundingBox())!;
    expect(longRow.height).toBeLessThan(100);
    await expect(rows.nth(0).getByTestId("video-name-cell")).toHaveAttribute("title", longName);

    // The bar: the project's task is a tab; the other tasks are under More tasks, opened and closed by keyboard.
    const nav = page.getByTestId("project-nav");
    await expect(nav.getByTestId("project-nav-vbench2")).toBeVisible();
    await expect(nav.getByTestId("project-nav-captions")).toBeHidden();
    const more = page.getByTestId("project-nav-more-button");
    await more.focus();
    await page.keyboard.press("Enter");
    await expect(nav.getByTestId("project-nav-captions")).toBeVisible();
    await expect(nav.getByTestId("project-nav-qa")).toBeVisible();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(nav.getByTestId("project-nav-captions")).toBeHidden();
    await expect(more).toBeFocused();
  } finally {
    await prisma.$disconnect();
  }
});
