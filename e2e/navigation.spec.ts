import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Finding your way (issue 22, items 9–11): the project navigation bar per role, the search box, runs
// named by task, model @ endpoint and date, the agreement page opening on a summary, and the dark theme.

const SHOTS = process.env.NAV_SHOTS_DIR ?? "/work/shots/nav";
const CATEGORIES = ["s1", "s2", "s3", "s4", "s5", "s6"];
/** Every category of the hallucination task: as many bars as the per-category chart gets in practice. */
const ALL_CATEGORIES = [
  ...Array.from({ length: 10 }, (_, i) => `s${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `d${i + 1}`),
];

/** A project with five framed videos, a finished run scoring six long-named categories, two reviewers' judgments and a queue. */
async function seedProject(label: string, categories: readonly string[] = CATEGORIES) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  const { reviewScore, reviewVideoOutcome } = await import("../lib/reviews/reviews");
  const { projectAccess } = await import("../lib/authz/permissions");
  const owner = await ownerWithProject(label);
  const actorOf = async (email: string) => {
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    return { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  };
  const ownerActor = await actorOf(owner.email);
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, ownerActor, {
    videoCount: 5,
    keyFrames: 1,
    name: `${label} nav`,
  });
  const people: Record<"reviewer" | "viewer", { email: string; password: string }> = {
    reviewer: { email: "", password: "" },
    viewer: { email: "", password: "" },
  };
  const reviewers = [];
  for (const [name, role] of [
    ["Ann", "reviewer"],
    ["Bob", "reviewer"],
    ["Vic", "viewer"],
  ] as const) {
    const email = `${name.toLowerCase()}-${label}-${Date.now()}@example.test`;
    await cli("create-user", "--email", email, "--password", "member-password-1", "--name", name);
    await cli("add-member", "--project", projectId, "--email", email, "--role", role);
    people[role] = { email, password: "member-password-1" };
    if (role === "reviewer") reviewers.push(await actorOf(email));
  }
  const { runId, scoreIds } = await seedFinishedRun(prisma, ownerActor, projectId, videoIds, {
    endpointName: "stub judge",
    scores: (v) =>
      categories.map((category, c) => ({
        stepId: stepOf(category),
        scopeIndex: 0,
        category,
        value: (v * 3 + c * 2) % 11,
      })),
    outcome: (v) => ({ verdict: v % 2 === 0, overall: v % 2 === 0 ? 35 : 85 }),
  });
  for (const [v, videoId] of videoIds.entries()) {
    for (const [r, reviewer] of reviewers.entries()) {
      for (const [c, category] of categories.entries()) {
        await reviewScore(
          prisma,
          await projectAccess(prisma, reviewer, projectId, "scores.review"),
          scoreIds.get(`${v}:${stepOf(category)}:0:${category}`)!,
          {
            value: (v * 3 + c * 2 + r + (v === 1 ? 5 : 0)) % 11,
          },
        );
      }
      await reviewVideoOutcome(
        prisma,
        await projectAccess(prisma, reviewer, projectId, "scores.review"),
        runId,
        videoId,
        "verdict",
        { value: (v + r) % 3 === 0 ? 1 : 0 },
      );
    }
  }
  const queue = await prisma.reviewQueue.create({
    data: { projectId, name: "Melting snowmen verdicts", runId, scope: "verdict", createdById: ownerActor.userId },
  });
  return { prisma, owner, people, projectId, runId, queueId: queue.id };
}

function stepOf(category: string) {
  return category.startsWith("d") ? ("dynamic_hallucination" as const) : ("static_hallucination" as const);
}

async function navIds(page: Page): Promise<string[]> {
  return page
    .getByTestId("project-nav")
    .locator("a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("data-testid")!.replace("project-nav-", "")));
}

test("the navigation bar shows each role only what it may open, the search finds videos, runs and queues, and runs are named", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { prisma, owner, people, projectId, runId, queueId } = await seedProject("navbar");
  try {
    await signIn(page, people.viewer.email, people.viewer.password);
    await page.goto(`/projects/${projectId}/videos`);
    const viewerLinks = await navIds(page);
    expect(viewerLinks).toEqual(
      expect.arrayContaining([
        "videos",
        "judge",
        "queues",
        "agreement",
        "captions",
        "qa",
        "calibration",
        "construction",
        "settings",
      ]),
    );
    expect(viewerLinks).not.toContain("import");
    expect(viewerLinks).not.toContain("adjudication");
    // Every link the viewer sees opens (no 403 behind a link), and marks itself as the current page.
    for (const id of viewerLinks) {
      const href = await page.getByTestId(`project-nav-${id}`).getAttribute("href");
      const response = await page.goto(href!);
      expect(response?.status(), href!).toBe(200);
      await expect(page.getByTestId(`project-nav-${id}`)).toHaveAttribute("aria-current", "page");
    }
    // The settings page lists the members; only owners get its forms.
    await page.goto(`/projects/${projectId}/settings`);
    await expect(page.getByTestId("member-list")).toContainText(people.reviewer.email);
    await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);

    // The search box: a video by file name, a run by its name's parts, a queue by name.
    await page.getByTestId("project-search-input").fill("clip-3");
    await page.getByTestId("project-search-input").press("Enter");
    await expect(page).toHaveURL(/\/search\?q=clip-3/);
    await expect(page.getByTestId("search-videos").getByRole("link")).toHaveText(["clip-3.mp4"]);
    await page.getByTestId("project-search-input").fill("hallucination stub judge");
    await page.getByTestId("project-search-input").press("Enter");
    const runLink = page.getByTestId("search-runs").getByRole("link");
    await expect(runLink).toHaveText(
      /^Hallucination · stub-model @ stub judge · \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}$/,
    );
    await expect(runLink).toHaveAttribute("href", `/projects/${projectId}/runs/${runId}`);
    await page.getByTestId("project-search-input").fill("snowmen");
    await page.getByTestId("project-search-input").press("Enter");
    await expect(page.getByTestId("search-queues").getByRole("link")).toHaveAttribute(
      "href",
      `/projects/${projectId}/queues/${queueId}`,
    );
    // A prompt's words find its video.
    await page.getByTestId("project-search-input").fill("ramp number 4");
    await page.getByTestId("project-search-input").press("Enter");
    await expect(page.getByTestId("search-videos").getByRole("link")).toHaveText(["clip-4.mp4"]);

    // Runs are named, never shown by an id tail, on the pages that list them.
    const runName = /Hallucination · stub-model @ stub judge · /;
    for (const path of ["/judge", `/runs/${runId}`, `/queues/${queueId}`, "/agreement?view=details"]) {
      await page.goto(`/projects/${projectId}${path}`);
      await expect(page.locator("main")).toContainText(runName);
      expect(await page.locator("main").innerText(), path).not.toMatch(/\brun [a-z0-9]{6}\b/);
    }
    // The verdict confusion's cells list their videos' run by name.
    await page.getByRole("button", { name: /verdicts \(\d+\)/ }).click();
    await expect(page.getByTestId("cell-videos")).toContainText(runName);

    // The owner sees Import and Adjudication too.
    await page.context().clearCookies();
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}`);
    const ownerLinks = await navIds(page);
    expect(ownerLinks).toEqual(expect.arrayContaining([...viewerLinks, "import", "adjudication"]));
    await page.goto(`/projects/${projectId}/queues/new`);
    await expect(page.locator("main")).toContainText(runName);
  } finally {
    await prisma.$disconnect();
  }
});

test("the agreement page opens on a summary under 2,000 px; the details are one click away and the category labels do not overlap", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { prisma, owner, projectId } = await seedProject("agreement-summary", ALL_CATEGORIES);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/agreement`);
    const summary = page.getByTestId("agreement-kind-summary");
    await expect(summary).toBeVisible();
    // One row per target kind, and every target binarised.
    const rows = summary.getByTestId("kind-summary-row");
    await expect(rows.filter({ hasText: "Scores" })).toHaveCount(1);
    await expect(summary.locator('[data-kind="verdict"]')).toBeVisible();
    await expect(summary.locator('[data-kind="all"]')).toBeVisible();
    await expect(page.getByTestId("judge-vs-humans")).toHaveCount(0);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(2000);
    const allKappa = (await summary.locator('[data-kind="all"] td').nth(2).innerText()).trim();
    const allN = (await summary.locator('[data-kind="all"] td').nth(1).innerText()).trim();
    const summaryKappa = (await page.getByTestId("summary-kappa").innerText()).trim();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/agreement-summary-light.png`, fullPage: true });

    // One click: the details, with the same numbers.
    await page.getByTestId("agreement-view-details").click();
    await expect(page).toHaveURL(/view=details/);
    const consensus = page.getByTestId("judge-vs-humans").locator("tbody tr").first();
    await expect(consensus.locator("td").nth(1)).toHaveText(allN);
    await expect(consensus.locator("td").nth(3)).toContainText(allKappa);
    await expect(page.getByTestId("summary-kappa")).toHaveText(summaryKappa);
    for (const id of ["chart-scatter", "chart-categories", "chart-sweep", "breakdown-category", "among-reviewers"])
      await expect(page.getByTestId(id)).toBeVisible();
    // The filters keep the view.
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/view=details/);
    await expect(page.getByTestId("judge-vs-humans")).toBeVisible();

    // The per-category chart's labels: one per category, none overlapping another.
    // (The category axis's ticks are its non-numeric ones; the value axis's are numbers.)
    const ticks = page
      .getByTestId("chart-categories")
      .locator(".recharts-cartesian-axis-tick-value")
      .filter({ hasNotText: /^\s*-?[\d.]+\s*$/ });
    const bars = await page.getByTestId("breakdown-category").getByTestId("breakdown-row").count();
    expect(bars).toBeGreaterThanOrEqual(ALL_CATEGORIES.length);
    await expect(ticks).toHaveCount(bars);
    const boxes = await ticks.evaluateAll((nodes) =>
      nodes.map((n) => n.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }),
    );
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        expect(overlap, `labels ${i} and ${j} overlap`).toBe(false);
      }
    }
    await page.screenshot({ path: `${SHOTS}/agreement-details-light.png`, fullPage: true });
  } finally {
    await prisma.$disconnect();
  }
});

/** axe-core's WCAG AA colour contrast rule; the failures as "selector: ratio" lines. */
async function contrastFailures(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${n.any[0]?.message ?? v.help}`));
}

/** The page background's relative brightness, 0–1 (the computed colour may be oklch: a canvas turns it into sRGB). */
const backgroundLuminance = (page: Page) =>
  page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
  });

test("dark mode follows the system, a toggle overrides it, and text keeps WCAG AA contrast in both themes", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const { prisma, owner, projectId, runId } = await seedProject("theme");
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}`);
    // The system's dark theme, with no choice made.
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    expect(await backgroundLuminance(page)).toBeLessThan(0.2);
    await page.emulateMedia({ colorScheme: "light" });
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.8);

    // The toggle overrides the system, at once and on the next page (a cookie the server reads).
    await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("theme-toggle").selectOption("dark");
    expect(await backgroundLuminance(page)).toBeLessThan(0.2);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await backgroundLuminance(page)).toBeLessThan(0.2);

    const pages = [
      ["overview", `/projects/${projectId}`],
      ["videos", `/projects/${projectId}/videos`],
      ["judge", `/projects/${projectId}/judge`],
      ["run", `/projects/${projectId}/runs/${runId}`],
      ["agreement", `/projects/${projectId}/agreement`],
      ["agreement-details", `/projects/${projectId}/agreement?view=details`],
      ["queues", `/projects/${projectId}/queues`],
      ["settings", `/projects/${projectId}/settings`],
      ["search", `/projects/${projectId}/search?q=clip`],
    ] as const;
    fs.mkdirSync(SHOTS, { recursive: true });
    const failures: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      await page.goto(`/projects/${projectId}`);
      await page.getByTestId("theme-toggle").selectOption(theme);
      for (const [name, url] of pages) {
        await page.goto(url);
        await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
        await page.waitForLoadState("networkidle");
        await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png`, fullPage: true });
        failures.push(...(await contrastFailures(page)).map((f) => `${theme} ${name}: ${f}`));
      }
    }
    expect(failures).toEqual([]);
  } finally {
    await prisma.$disconnect();
  }
});
