import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// The agreement dashboard: a finished run with two reviewers' judgments (seeded in the database),
// the charts, a known number, a confusion cell's link to the video list, and a streamed CSV export.
test("the agreement dashboard shows the statistics, links to the items behind a cell and exports them", async ({
  page,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  const { reviewScore, reviewVideoOutcome } = await import("../lib/reviews/reviews");
  const { projectAccess } = await import("../lib/authz/permissions");
  const { matchingVideoIds } = await import("../lib/videos/video-filter-sql");
  const { videoFilterSchema } = await import("../lib/videos/video-filter");
  const { builtInCatalogue } = await import("../lib/task-modules/task-catalogue");
  try {
    const owner = await ownerWithProject("agreement");
    const actorOf = async (email: string) => {
      const user = await prisma.user.findUniqueOrThrow({ where: { email } });
      return { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    };
    const ownerActor = await actorOf(owner.email);
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, ownerActor, {
      videoCount: 5,
      keyFrames: 1,
      name: "Agreement e2e",
    });
    const reviewers = [];
    for (const name of ["Ann", "Bob"]) {
      const email = `${name.toLowerCase()}-${Date.now()}@example.test`;
      await cli("create-user", "--email", email, "--password", "reviewer-password-1", "--name", name);
      await cli("add-member", "--project", projectId, "--email", email, "--role", "reviewer");
      reviewers.push(await actorOf(email));
    }
    // judge: s1 scores and verdicts per video; humans (Ann, Bob) below
    const judgeS1 = [8, 7, 2, 1, 6];
    const judgeVerdict = [true, true, false, false, true];
    const { runId, scoreIds } = await seedFinishedRun(prisma, ownerActor, projectId, videoIds, {
      endpointName: "stub judge",
      scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: judgeS1[v]! }],
      outcome: (v) => ({ verdict: judgeVerdict[v]!, overall: judgeVerdict[v] ? 35 : 85, I: judgeS1[v]! }),
    });

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}`);
    // The project page links the dashboard; open it by URL, since a click that lands before hydration
    // under load could leave the test on the project page (whose Reviews card also says "No human judgments yet").
    await expect(page.getByRole("link", { name: "Agreement" })).toHaveAttribute(
      "href",
      `/projects/${projectId}/agreement`,
    );
    await page.goto(`/projects/${projectId}/agreement`);
    await expect(page.getByRole("heading", { name: "Agreement" })).toBeVisible();
    await expect(page.getByText("No human judgments yet")).toBeVisible();

    const humanS1 = [
      [9, 8],
      [2, 3],
      [1, 2],
      [6, 7],
      [1, 2],
    ];
    const humanVerdict = [1, 0, 0, 1, 0];
    for (const [v, videoId] of videoIds.entries()) {
      for (const [r, reviewer] of reviewers.entries()) {
        await reviewScore(
          prisma,
          await projectAccess(prisma, reviewer, projectId, "scores.review"),
          scoreIds.get(`${v}:static_hallucination:0:s1`)!,
          {
            value: humanS1[v]![r]!,
            note: r === 0 && v === 0 ? "=SUM(A1:A9)" : undefined,
          },
        );
        await reviewVideoOutcome(
          prisma,
          await projectAccess(prisma, reviewer, projectId, "scores.review"),
          runId,
          videoId,
          "verdict",
          { value: humanVerdict[v]! },
        );
      }
    }

    // The details (charts, tables) are one click from the summary the page opens on.
    await page.reload();
    await page.getByTestId("agreement-view-details").click();
    await expect(page).toHaveURL(/view=details/);
    await expect(page.getByTestId("summary-reviewed")).toHaveText("10");
    // Issue 38 §5.12: in dark mode "independent only" is set in the body size and stays inside its card.
    await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("theme-toggle").selectOption("dark");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    const counted = page.getByTestId("summary-independent");
    await expect(counted).toHaveText("independent only");
    await expect(counted).toHaveAttribute("data-kind", "words");
    const fits = await counted.evaluate((value) => {
      const card = value.parentElement!.getBoundingClientRect();
      const text = value.getBoundingClientRect();
      return {
        inside: text.right <= card.right + 0.5 && value.scrollWidth <= value.clientWidth + 0.5,
        fontSize: parseFloat(getComputedStyle(value).fontSize),
      };
    });
    expect(fits.inside).toBe(true);
    expect(fits.fontSize).toBeLessThan(
      parseFloat(await page.getByTestId("summary-reviewed").evaluate((figure) => getComputedStyle(figure).fontSize)),
    );
    await page.getByTestId("theme-toggle").selectOption("light");
    // binarised over 5 scores and 5 verdicts: tp 2, fp 4, fn 2, tn 2 → accuracy 0.40
    await expect(page.getByTestId("summary-accuracy")).toHaveText("0.40");
    for (const chart of ["confusion-verdict"]) await expect(page.getByTestId(chart)).toBeVisible();
    for (const chart of ["chart-scatter", "chart-categories", "chart-sweep"])
      await expect(page.getByTestId(chart).locator("svg.recharts-surface").first()).toBeVisible();
    await expect(page.getByTestId("chart-scatter").locator(".recharts-scatter-symbol")).toHaveCount(5);
    await expect(page.getByTestId("sweep-best")).toContainText("Best F1");

    // judge "yes", reviewers "no": v1 and v4
    const cell = page.getByTestId("confusion-cell-verdict-01");
    await expect(cell).toContainText("2");
    await cell.click();
    await expect(page).toHaveURL(/\/videos\?/);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ runId, verdict: "yes", humanVerdict: "no" });
    const filter = videoFilterSchema(builtInCatalogue()).parse(Object.fromEntries(url.searchParams));
    const matching = await matchingVideoIds(prisma, filter, {
      projectId,
      catalogue: builtInCatalogue(),
      runId,
      userId: ownerActor.userId,
    });
    expect(matching.sort()).toEqual([videoIds[1]!, videoIds[4]!].sort());
    await expect(page.getByRole("heading", { name: "Videos" })).toBeVisible();
    // The video list reads the same filters: it shows exactly the cell's videos.
    await expect(page.getByTestId("video-total")).toHaveText(/^\s*2 matching/);
    await expect(page.getByTestId("video-link")).toHaveCount(2);

    await page.goBack();
    // The cell's videos are listed by file name, not id.
    await expect(page.getByTestId("cell-video").first()).toHaveText(/^clip-\d\.mp4$/);
    // The export is a plain link to the GET route, saved straight to disk by the browser: no blob: URL, and
    // the page never holds the file (issue 23, item 13).
    const link = page.getByRole("link", { name: "Items CSV" });
    expect(await link.getAttribute("href")).toMatch(new RegExp(`^/api/v1/projects/${projectId}/export\\?.*format=csv`));
    await page.evaluate(() => {
      const counted = window as unknown as { blobUrls: number };
      counted.blobUrls = 0;
      const create = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (object: Blob | MediaSource) => {
        counted.blobUrls++;
        return create(object);
      };
    });
    const downloadPromise = page.waitForEvent("download");
    await link.click();
    const download = await downloadPromise;
    expect(download.url()).toMatch(new RegExp(`/api/v1/projects/${projectId}/export\\?`));
    expect(await page.evaluate(() => (window as unknown as { blobUrls: number }).blobUrls)).toBe(0);
    // Named for the project, what it holds, the filter (none: all) and the day.
    expect(download.suggestedFilename()).toBe(
      `framejury_Agreement-e2e_items_all_${new Date().toISOString().slice(0, 10)}.csv`,
    );
    const text = fs.readFileSync(await download.path(), "utf8");
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1 + 5 * 3); // header; per video the s1 score, the verdict, the overall
    expect(lines[0]).toContain("Ann value,Ann note,Ann reason,Ann accepted_judge,Ann implied,Bob value");
    expect(text).toContain("'=SUM(A1:A9)");

    // Issue 28, item 3: the run as a Hugging Face dataset, a plain link too; the saved file is a tar holding
    // the dataset card, the JSONL shard and the frames (the streamed response, read back entry by entry).
    const hfLink = page.getByRole("link", { name: "Hugging Face dataset (.tar)" });
    expect(await hfLink.getAttribute("href")).toBe(
      `/api/v1/projects/${projectId}/export/hf-dataset?runId=${encodeURIComponent(runId)}`,
    );
    const hfDownloadPromise = page.waitForEvent("download");
    await hfLink.click();
    const hfDownload = await hfDownloadPromise;
    expect(hfDownload.suggestedFilename()).toMatch(/^framejury_Agreement-e2e_hf-dataset_runId-.+\.tar$/);
    const { extract } = await import("tar-stream");
    const names: string[] = [];
    const reader = extract();
    reader.on("entry", (header, body, next) => {
      names.push(header.name);
      body.on("end", next);
      body.resume();
    });
    const hfPath = await hfDownload.path();
    await new Promise((resolve, reject) => {
      reader.on("finish", () => resolve(undefined));
      reader.on("error", reject);
      fs.createReadStream(hfPath).pipe(reader);
    });
    expect(names).toContain("data/test-00000.jsonl");
    expect(names[names.length - 1]).toBe("README.md");
    expect(names.some((n) => n.startsWith("frames/"))).toBe(true);
    const ls = page.getByRole("link", { name: "Label Studio tasks", exact: true });
    expect(await ls.getAttribute("href")).toBe(
      `/api/v1/projects/${projectId}/export/label-studio?runId=${encodeURIComponent(runId)}&part=tasks`,
    );
  } finally {
    await prisma.$disconnect();
  }
});
