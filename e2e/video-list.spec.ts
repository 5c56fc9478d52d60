import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// The video list: score filters, sortable columns, moving through rows and pages with the keyboard only,
// and previous/next on the video page following the list's filter and order.
test("filters the video list by a score range, sorts by a column and opens a video with the keyboard", async ({
  page,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  try {
    const owner = await ownerWithProject("list");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 4, keyFrames: 1, name: "Listed" },
    );
    // A finished run: clip-0 overall 80, clip-1 35, clip-2 55; clip-3 was not judged.
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: user.id },
    });
    const run = await prisma.judgeRun.create({
      data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: user.id, status: "done" },
    });
    for (const [i, overall] of [80, 35, 55].entries()) {
      const S = (100 - overall) / 10;
      await createRunVideo(prisma, {
        runId: run.id,
        videoId: videoIds[i]!,
        frameSetId: "fs",
        status: "done",
        metrics: { S: S, D: S, I: 1, overall: overall, verdict: overall < 60 },
      });
    }
    const base = `/projects/${projectId}/videos`;
    const rows = page.getByTestId("video-row");
    const names = () => rows.getByTestId("video-link").allTextContents();

    await signIn(page, owner.email, owner.password);
    await page.goto(base);
    await expect(rows).toHaveCount(4);
    await expect(page.getByTestId("score-run")).toContainText("Scores from run");
    await expect(page.getByTestId("video-thumbnail")).toHaveCount(4);
    await expect(page.getByTestId("shortcut-hint")).toContainText("j");
    await expect(page.getByTestId("create-queue-link")).toHaveAttribute("href", `/projects/${projectId}/queues/new`);

    // Overall 50–90: clip-0 and clip-2.
    await page.getByLabel("Overall min").fill("50");
    await page.getByLabel("Overall max").fill("90");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/overallMin=50/);
    await expect(rows).toHaveCount(2);
    await expect(page.getByTestId("video-total")).toHaveText("2 matching");
    expect(await names()).toEqual(["clip-0.mp4", "clip-2.mp4"]);
    await expect(page.getByTestId("create-queue-link")).toHaveAttribute(
      "href",
      /\/queues\/new\?.*overallMin=50.*overallMax=90|\/queues\/new\?.*overallMax=90.*overallMin=50/,
    );

    // Sorting keeps the filter: ascending, then descending.
    await page.getByTestId("sort-overall").click();
    await expect(page.getByTestId("sort-overall")).toHaveText("Overall ▲");
    expect(await names()).toEqual(["clip-2.mp4", "clip-0.mp4"]);
    await expect(page.getByTestId("score-overall").first()).toHaveText("55");
    await page.getByTestId("sort-overall").click();
    await expect(page.getByTestId("sort-overall")).toHaveText("Overall ▼");
    expect(await names()).toEqual(["clip-0.mp4", "clip-2.mp4"]);
    await expect(page).toHaveURL(/overallMax=90/);

    // The keyboard: j/k move the cursor, typing in the search box is not a shortcut, Enter opens.
    await expect(page.getByTestId("video-table")).toHaveAttribute("data-keyboard", "on");
    await expect(rows.nth(0)).toHaveAttribute("data-cursor", "true");
    await page.keyboard.press("j");
    await expect(rows.nth(1)).toHaveAttribute("data-cursor", "true");
    await page.keyboard.press("k");
    await expect(rows.nth(0)).toHaveAttribute("data-cursor", "true");
    await page.keyboard.press("ArrowDown");
    await expect(rows.nth(1)).toHaveAttribute("data-cursor", "true");
    await page.keyboard.press("?");
    await expect(page.getByTestId("video-list-keys")).toContainText("next / previous page");
    await page.keyboard.press("?");
    await expect(page.getByTestId("video-list-keys")).toHaveCount(0);
    await page.keyboard.press("/");
    await expect(page.getByLabel("Prompt contains")).toBeFocused();
    await page.keyboard.type("jk");
    await expect(page.getByLabel("Prompt contains")).toHaveValue("jk");
    await expect(rows.nth(1)).toHaveAttribute("data-cursor", "true");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${base}/${videoIds[2]}\\?list=`));
    await expect(page.getByTestId("video-title")).toHaveText("clip-2.mp4");

    // Previous/next on the video page follow the list's filter (overall 50–90) and order (overall ▼): clip-0, clip-2.
    await expect(page.getByTestId("video-nav")).toHaveAttribute("data-keyboard", "on");
    await expect(page.getByTestId("video-position")).toHaveText("2 of 2");
    await expect(page.getByTestId("next-video-none")).toBeVisible();
    await page.keyboard.press("?");
    await expect(page.getByTestId("video-keys")).toContainText("next video in the list");
    await page.keyboard.press("k");
    await expect(page.getByTestId("video-title")).toHaveText("clip-0.mp4");
    await expect(page.getByTestId("video-position")).toHaveText("1 of 2");
    await expect(page.getByTestId("previous-video-none")).toBeVisible();
    // clip-1 (overall 35) is outside the filter, though it comes next by path.
    await expect(page.getByTestId("video-nav")).toHaveAttribute("data-keyboard", "on");
    await page.keyboard.press("j");
    await expect(page.getByTestId("video-title")).toHaveText("clip-2.mp4");
    await page.getByTestId("previous-video").click();
    await expect(page.getByTestId("video-title")).toHaveText("clip-0.mp4");
    await expect(page).toHaveURL(/list=.*overallMin%3D50/);
    await page.getByTestId("back-to-list").click();
    await expect(page.getByTestId("sort-overall")).toHaveText("Overall ▼");
    await expect(rows).toHaveCount(2);

    // Pages with ] and [, the filter kept.
    await page.goto(`${base}?pageSize=3`);
    await expect(page.getByTestId("video-table")).toHaveAttribute("data-keyboard", "on");
    await expect(page.getByTestId("page-info")).toHaveText("page 1 of 2");
    await page.keyboard.press("]");
    await expect(page.getByTestId("page-info")).toHaveText("page 2 of 2");
    await expect(page).toHaveURL(/pageSize=3/);
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId("video-table")).toHaveAttribute("data-keyboard", "on");
    await page.keyboard.press("o");
    await expect(page.getByTestId("video-title")).toHaveText("clip-3.mp4");
    await page.goBack();
    await expect(page.getByTestId("video-table")).toHaveAttribute("data-keyboard", "on");
    await page.keyboard.press("[");
    await expect(page.getByTestId("page-info")).toHaveText("page 1 of 2");

    // A malformed filter is an error, not a silently unfiltered list.
    await page.goto(`${base}?overallMax=abc`);
    await expect(page.getByTestId("filter-error")).toContainText("overallMax");
    await expect(rows).toHaveCount(0);

    // A hand-typed page that does not exist: the nearest page, with a plain sentence, never the schema's message.
    await page.goto(`${base}?pageSize=3&page=999999`);
    await expect(page.getByTestId("page-notice")).toHaveText("Page 999999 is past the last page (2): showing page 2.");
    await expect(page.getByTestId("page-info")).toHaveText("page 2 of 2");
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId("filter-error")).toHaveCount(0);
    await page.goto(`${base}?pageSize=3&page=-3`);
    await expect(page.getByTestId("page-notice")).toHaveText("Page -3 is before the first page: showing page 1.");
    await expect(page.getByTestId("page-info")).toHaveText("page 1 of 2");
    await page.goto(`${base}?page=abc`);
    await expect(page.getByTestId("page-notice")).toHaveText('"abc" is not a page number: showing page 1.');
    await expect(rows).toHaveCount(4);
  } finally {
    await prisma.$disconnect();
  }
});

const LONG_PROMPT =
  "A golden retriever in a bright red raincoat runs along a wet cobblestone street at dusk, splashing through puddles that reflect neon shop signs, while a cyclist in a yellow jacket passes behind it and a tram slowly crosses the intersection in the background under light rain";

// At 1440, 1920 and 2560 px the thumbnails have a width, every cell's text stays inside its cell (no "49.9yes"),
// and the table fits its container; the grid view shows the same page as cards with key frame strips on hover.
test("the video table fits at 1440, 1920 and 2560 px with real thumbnails; the grid view keeps the filter and shows key frames on hover", async ({
  page,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  try {
    const owner = await ownerWithProject("list-fit");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 3, keyFrames: 3, name: "Fit" },
    );
    // Real clip sets: long prompts, long model names, several dimensions.
    await prisma.video.update({
      where: { id: videoIds[0]! },
      data: {
        prompt: LONG_PROMPT,
        model: "hunyuan-video-t2v-720p-v1.5-distilled",
        dimensions: ["Mechanics", "Thermotics", "Material", "Camera motion"],
      },
    });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: user.id },
    });
    const run = await prisma.judgeRun.create({
      data: { projectId, pipeline: "hallucination", endpointId: endpoint.id, createdById: user.id, status: "done" },
    });
    for (const [i, overall] of [49.9, 72, 55].entries()) {
      const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId: videoIds[i]! } });
      await createRunVideo(prisma, {
        runId: run.id,
        videoId: videoIds[i]!,
        frameSetId: frameSet.id,
        status: "done",
        metrics: { S: 4.25, D: 3.75, I: 1, overall, verdict: overall < 60 },
      });
    }
    const base = `/projects/${projectId}/videos`;
    await signIn(page, owner.email, owner.password);

    for (const width of [1440, 1920, 2560]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(base);
      const table = page.getByTestId("video-table");
      await expect(page.getByTestId("video-row")).toHaveCount(3);
      // Loaded thumbnails, each with a real width.
      await expect
        .poll(() =>
          page
            .getByTestId("video-thumbnail")
            .evaluateAll((imgs) =>
              imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
            ),
        )
        .toBe(true);
      const widths = await page
        .getByTestId("video-thumbnail")
        .evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect().width));
      expect(widths, `thumbnail widths at ${width} px`).toEqual([64, 64, 64]);
      // The table fits the box it is in.
      const fit = await table.evaluate((el) => ({
        table: el.getBoundingClientRect().width,
        scroll: el.scrollWidth,
        box: el.parentElement!.clientWidth,
      }));
      expect(fit.table, `table width at ${width} px`).toBeLessThanOrEqual(fit.box + 1);
      expect(fit.scroll, `table scrollWidth at ${width} px`).toBeLessThanOrEqual(fit.box + 1);
      // No cell's content runs past its cell into the next one.
      const overlaps = await table.evaluate((el) => {
        const found: string[] = [];
        for (const row of el.querySelectorAll("tbody tr")) {
          const cells = [...row.querySelectorAll("td")];
          cells.forEach((cell, i) => {
            if (!cell.textContent?.trim() && !cell.querySelector("img")) return;
            const range = document.createRange();
            range.selectNodeContents(cell);
            const content = range.getBoundingClientRect();
            const box = cell.getBoundingClientRect();
            if (content.right > box.right + 0.5 || content.left < box.left - 0.5)
              found.push(
                `cell ${i} "${cell.textContent?.slice(0, 30)}": content ${content.left.toFixed(1)}–${content.right.toFixed(1)}, cell ${box.left.toFixed(1)}–${box.right.toFixed(1)}`,
              );
          });
        }
        return found;
      });
      expect(overlaps, `cells overflowing at ${width} px`).toEqual([]);
      if (width === 1440) await page.screenshot({ path: "/work/shots/videoui/list-table-1440.png", fullPage: true });
    }

    // The grid: the same filter and order, kept in the address with view=grid; the filter form keeps the view.
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(`${base}?sort=overall&dir=desc`);
    await page.getByTestId("view-grid").click();
    await expect(page).toHaveURL(/view=grid/);
    await expect(page).toHaveURL(/sort=overall/);
    const cards = page.getByTestId("video-card");
    await expect(cards).toHaveCount(3);
    expect(await cards.getByTestId("video-link").allTextContents()).toEqual(["clip-1.mp4", "clip-2.mp4", "clip-0.mp4"]);
    await expect(cards.first().getByTestId("score-overall")).toHaveText("72");
    await expect
      .poll(() =>
        page
          .getByTestId("video-thumbnail")
          .evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect().width > 100)),
      )
      .toEqual([true, true, true]);
    // Hovering a card shows its key frame strip (three key frames).
    await expect(page.getByTestId("grid-key-frames")).toHaveCount(0);
    await cards.nth(2).hover();
    await expect(cards.nth(2).getByTestId("grid-key-frame")).toHaveCount(3);
    await expect
      .poll(() =>
        cards
          .nth(2)
          .getByTestId("grid-key-frame")
          .first()
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await page.screenshot({ path: "/work/shots/videoui/list-grid-1440.png", fullPage: true });
    // j moves the cursor over the cards; a filter keeps the grid.
    await page.mouse.move(0, 0);
    await expect(page.getByTestId("video-grid")).toHaveAttribute("data-keyboard", "on");
    await page.keyboard.press("j");
    await expect(cards.nth(1)).toHaveAttribute("data-cursor", "true");
    await page.getByLabel("Overall min").fill("50");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/overallMin=50/);
    await expect(page).toHaveURL(/view=grid/);
    await expect(cards).toHaveCount(2);
    await page.getByTestId("view-table").click();
    await expect(page).not.toHaveURL(/view=grid/);
    await expect(page.getByTestId("video-row")).toHaveCount(2);
    // An unknown view is refused like any malformed filter.
    await page.goto(`${base}?view=mosaic`);
    await expect(page.getByTestId("filter-error")).toContainText("view");
  } finally {
    await prisma.$disconnect();
  }
});
