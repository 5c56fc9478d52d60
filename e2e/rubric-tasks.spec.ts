import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

/*
 * Issue 25 in the browser: an owner defines a rubric task on the Rubric tasks page (a numeric and a boolean
 * criterion, per video), sees the field-named problems and the prompt live, previews it on a video through the
 * stub LLM (a test tool; a second identical preview comes from the cache), saves it, and runs it from the Judge
 * page. A reviewer reviews the run in a blind queue by keyboard; the agreement page, filtered to the run, shows the
 * numbers this test counts from what the reviewer typed and the judge's values read from the API; the items export
 * holds them row by row. Viewers read the page; owners archive, restore, import, export and delete.
 */

/** A CSV file's rows as cells (quoted cells with commas, quotes and line breaks included). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows.filter((r) => r.some((c) => c !== ""));
}

/** Clicks until `then` holds: a click that lands before hydration does nothing. */
async function clickUntil(target: Locator, then: () => Promise<void>) {
  await expect(async () => {
    await target.click();
    await then();
  }).toPass({ timeout: 30_000 });
}

async function signedInPage(page: Page, baseURL: string, account: { email: string; password: string }) {
  const signedIn = await page.request.post("/api/auth/sign-in/email", { data: account, headers: { origin: baseURL } });
  expect(signedIn.ok()).toBe(true);
}

test("a rubric task is defined and previewed in the UI, run with the stub, reviewed blind by keyboard, and its agreement and export match hand counts", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(300_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 10 });
  try {
    const owner = await ownerWithProject("rubric");
    const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const ownerActor = { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false };
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, ownerActor, {
      videoCount: 3,
      keyFrames: 1,
      uniformFrames: 8,
      name: "Rubric e2e",
    });
    const stamp = Date.now();
    const reviewer = { email: `rubric-reviewer-${stamp}@example.test`, password: "reviewer-password-1" };
    const viewer = { email: `rubric-viewer-${stamp}@example.test`, password: "viewer-password-1" };
    await cli("create-user", "--email", reviewer.email, "--password", reviewer.password, "--name", "Rita");
    await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
    await cli("create-user", "--email", viewer.email, "--password", viewer.password, "--name", "Vic");
    await cli("add-member", "--project", projectId, "--email", viewer.email, "--role", "viewer");
    const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
    const endpoint = await request.post(`/api/v1/projects/${projectId}/endpoints`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: {
        name: "Stub (simulated)",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        apiKey: "sk-rubric-never-shown",
        maxConcurrency: 4,
      },
    });
    expect(endpoint.ok()).toBe(true);

    // 1. Define the rubric task in the form, with its live problems and prompt, and preview it on a video.
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}`);
    await expect(page.getByTestId("project-nav-rubrics")).toHaveAttribute("href", `/projects/${projectId}/rubrics`);
    await page.goto(`/projects/${projectId}/rubrics`);
    await expect(page.getByRole("heading", { name: "Rubric tasks", level: 1 })).toBeVisible();
    const editor = page.getByTestId("rubric-editor");
    await clickUntil(page.getByRole("button", { name: "New rubric task" }), () =>
      expect(editor).toBeVisible({ timeout: 2_000 }),
    );
    await editor.getByLabel("Name", { exact: true }).fill("Clip check");
    await editor.getByLabel("Description", { exact: true }).fill("Quality and legibility of each clip.");
    await editor.getByLabel("Guidelines (Markdown)").fill("Judge the **whole** clip.");
    await editor.getByLabel("Criterion 1 id").fill("quality");
    await editor.getByLabel("Criterion 1 name").fill("Overall quality");
    await editor.getByLabel("Criterion 1 definition").fill("How good the clip looks: 1 bad, 5 great.");
    await editor.getByLabel("Criterion 1 max").fill("1");
    // min ≥ max: named at its field and in the list, and nothing can be saved.
    const problemAt = (path: string) => editor.locator(`[data-testid=field-problem][data-path="${path}"]`);
    await expect(problemAt("criteria.0.max")).toContainText("max (1) must be greater than min (1)");
    await expect(editor.getByTestId("rubric-problems")).toContainText("criteria.0.max");
    await expect(editor.getByRole("button", { name: "Create rubric task" })).toBeDisabled();
    await editor.getByLabel("Criterion 1 max").fill("5");
    await editor.getByRole("button", { name: "Add criterion" }).click();
    await editor.getByLabel("Criterion 2 id").fill("legible");
    await editor.getByLabel("Criterion 2 type").selectOption("boolean");
    await editor.getByLabel("Criterion 2 name").fill("Legible text");
    await editor.getByLabel("Criterion 2 definition").fill("Is every on-screen text legible?");
    await editor
      .getByLabel("Prompt template")
      .fill("Judge the clip made for: {{prompt}}\n{{frames}}\n{{colour}}\n{{criteria}}");
    await expect(problemAt("prompt")).toContainText("unknown variable {{colour}}");
    await editor
      .getByLabel("Prompt template")
      .fill("Judge the clip made for: {{prompt}}\n{{frames}}\nCriteria:\n{{criteria}}\nGuidelines: {{guidelines}}");
    await expect(editor.getByTestId("rubric-no-problems")).toBeVisible();
    await expect(editor.getByTestId("rubric-variables")).toContainText("{{prompt}}");
    const rendered = editor.getByTestId("rubric-rendered-prompt");
    await expect(rendered).toContainText("Judge the clip made for: A red ball rolls down a wooden ramp");
    await expect(rendered).toContainText(
      "- Overall quality (`quality`, a number from 1 to 5 in steps of 1 (higher is better)): How good the clip looks",
    );
    await expect(rendered).toContainText('- "legible": true or false');
    await expect(rendered).toContainText("8 uniformly spaced frames, attached in time order");
    await expect(rendered).toContainText("FrameJury rubric answer format:");
    await expect(editor.getByTestId("rubric-guidelines-preview").locator("strong")).toHaveText("whole");

    const preview = editor.getByTestId("rubric-video-preview");
    await preview.getByLabel("Preview video").selectOption({ label: "clip-1.mp4" });
    await preview.getByRole("button", { name: "Preview" }).click();
    await expect(preview.getByTestId("rubric-preview-cache")).toContainText("Answered by the endpoint", {
      timeout: 30_000,
    });
    await expect(preview.getByTestId("rubric-preview-cache")).toContainText("8 frames");
    await expect(preview.getByTestId("rubric-preview-frame")).toHaveCount(8);
    await expect(preview.getByTestId("rubric-preview-value")).toHaveCount(2);
    await expect(preview.locator('[data-testid=rubric-preview-value][data-criterion="quality"] dd')).toHaveText(
      /^[1-5]$/,
    );
    await expect(preview.locator('[data-testid=rubric-preview-value][data-criterion="legible"] dd')).toHaveText(
      /^(yes|no) \([01]\)$/,
    );
    await expect(preview.getByTestId("rubric-preview-parse-error")).toHaveCount(0);
    await expect(preview.getByTestId("rubric-preview-raw")).toContainText('"quality"');
    await expect(preview.getByTestId("rubric-preview-prompt")).toContainText(
      "Judge the clip made for: A ball rolls down a ramp",
    );
    await preview.getByRole("button", { name: "Preview" }).click();
    await expect(preview.getByTestId("rubric-preview-cache")).toContainText("Answered from the response cache");
    fs.mkdirSync("test-results", { recursive: true });
    await page.screenshot({ path: "test-results/rubric-tasks-owner-form.png", fullPage: true });

    await editor.getByRole("button", { name: "Create rubric task" }).click();
    await expect(editor).toHaveCount(0);
    const row = page.getByTestId("rubric-task").filter({ hasText: "Clip check" });
    await expect(row.getByTestId("rubric-task-version")).toHaveText("1");
    await expect(row.getByTestId("rubric-task-runs")).toHaveText("0");
    const pipeline = (await row.getAttribute("data-pipeline"))!;
    const key = Number(/^rubric_(\d+)$/.exec(pipeline)![1]);
    const quality = `r${key}_quality`;
    const legible = `r${key}_legible`;

    // 2. Run it from the Judge page with the stub.
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByTestId("run-pipeline").selectOption({ label: "Clip check (rubric task)" });
    await page.getByTestId("run-endpoint").selectOption({ label: "Stub (simulated) (stub-vision)" });
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run-started")).toContainText("Started on 3 videos");
    const runRow = page.getByTestId("run").first();
    await expect(runRow.getByTestId("run-status")).toHaveText("done", { timeout: 90_000 });
    const run = await prisma.judgeRun.findFirstOrThrow({ where: { projectId, pipeline }, select: { id: true } });

    // The judge's values, as the API gives them.
    const judge = new Map<string, number>();
    for (const videoId of videoIds) {
      const scores = (await (await page.request.get(`/api/v1/videos/${videoId}/scores?runId=${run.id}`)).json()) as {
        steps: { scores: { category: string; value: number }[] }[];
      };
      for (const s of scores.steps.flatMap((step) => step.scores)) judge.set(`${videoId}:${s.category}`, s.value);
    }
    expect(judge.size).toBe(6);

    // The browser's registry knows the rubric task: the run's video page names its criteria.
    await page.goto(`/projects/${projectId}/videos/${videoIds[0]}?runId=${run.id}`);
    const legend = page.getByTestId("target-legend");
    await expect(legend.getByTestId("legend-entry")).toHaveCount(2);
    await expect(legend).toContainText("Overall quality");
    await expect(legend).toContainText("Is every on-screen text legible?");

    // 3. A blind queue of the run's scores (the form reads the run's task from the browser's registry), reviewed by keyboard.
    await page.goto(`/projects/${projectId}/queues/new?runId=${run.id}`);
    await page.getByLabel("Name").fill("Rubric blind");
    await clickUntil(page.getByRole("radio", { name: /the judge's scores/ }), () =>
      expect(page.getByTestId("queue-categories")).toBeVisible({ timeout: 2_000 }),
    );
    await expect(page.getByTestId("queue-categories")).toContainText("Overall quality");
    await expect(page.getByTestId("queue-categories")).toContainText("Legible text");
    await expect(page.getByRole("checkbox", { name: /Blind/ })).toBeChecked();
    await page.getByRole("button", { name: "Create queue" }).click();
    await expect(page).toHaveURL(/\/queues\/(?!new)[^/?]+$/);
    const queueId = new URL(page.url()).pathname.split("/").pop()!;

    const reviewerPage = await browser.newPage();
    await signedInPage(reviewerPage, baseURL!, reviewer);
    await reviewerPage.goto(`/projects/${projectId}/queues/${queueId}`);
    await expect(reviewerPage.getByTestId("start-reviewing")).toBeFocused();
    await reviewerPage.keyboard.press("s");
    const screen = reviewerPage.getByTestId("review-screen");
    await expect(screen).toBeVisible();
    await expect(reviewerPage.getByTestId("blind-badge")).toContainText("judge values hidden");
    const typed = new Map<string, number>();
    for (let i = 0; i < 3; i++) {
      const itemId = (await screen.getAttribute("data-item-id"))!;
      const item = await prisma.reviewQueueItem.findUniqueOrThrow({ where: { id: itemId }, select: { videoId: true } });
      const q = judge.get(`${item.videoId}:${quality}`)!;
      const l = judge.get(`${item.videoId}:${legible}`)!;
      // Item 1 agrees; item 2 crosses the quality's binarising threshold (3); item 3 flips the boolean.
      const myQuality = i === 1 ? (q >= 3 ? 1 : 5) : q;
      const myLegible = i === 2 ? 1 - l : l;
      typed.set(`${item.videoId}:${quality}`, myQuality);
      typed.set(`${item.videoId}:${legible}`, myLegible);
      for (const k of [String(myQuality), "j", String(myLegible), "Enter"]) await reviewerPage.keyboard.press(k);
      if (i < 2) {
        // Blind: the submitted item shows the judge's values until Enter goes on.
        await expect(reviewerPage.getByTestId("reveal-summary")).toBeVisible();
        await reviewerPage.keyboard.press("Enter");
        await expect(screen).not.toHaveAttribute("data-item-id", itemId);
      }
    }
    await expect(reviewerPage.getByTestId("my-count")).toHaveText("you: 3 submitted");
    const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });
    const saved = await prisma.humanJudgment.findMany({
      where: { projectId, reviewerId: reviewerUser.id },
      select: { videoId: true, target: true, value: true },
    });
    expect(new Map(saved.map((j) => [`${j.videoId}:${j.target}`, j.value]))).toEqual(typed);
    await reviewerPage.close();

    // 4. The agreement page, filtered to the run, against the numbers counted here (binarised: quality ≥ 3, legible yes).
    const positive = (k: string, v: number) => (k.endsWith(`:${quality}`) ? v >= 3 : v === 1);
    const pairs = [...typed].map(([k, human]) => ({ judge: positive(k, judge.get(k)!), human: positive(k, human) }));
    const n = pairs.length;
    const po = pairs.filter((p) => p.judge === p.human).length / n;
    const judgeYes = pairs.filter((p) => p.judge).length / n;
    const humanYes = pairs.filter((p) => p.human).length / n;
    const pe = judgeYes * humanYes + (1 - judgeYes) * (1 - humanYes);
    await page.goto(`/projects/${projectId}/agreement?runId=${run.id}`);
    await expect(page.getByTestId("summary-videos")).toHaveText("3");
    await expect(page.getByTestId("summary-reviewed")).toHaveText("6");
    await expect(page.getByTestId("summary-accuracy")).toHaveText(po.toFixed(2));
    // κ from the counts, in integers: (po − pe) / (1 − pe) in floating point can land a hair below an exact 0 ("-0.00").
    const [agree, judgeYesCount, humanYesCount] = [po * n, judgeYes * n, humanYes * n].map(Math.round) as [
      number,
      number,
      number,
    ];
    const chance = judgeYesCount * humanYesCount + (n - judgeYesCount) * (n - humanYesCount);
    await expect(page.getByTestId("summary-kappa")).toHaveText(
      pe < 1 ? ((agree * n - chance) / (n * n - chance)).toFixed(2) : "—",
    );

    // 5. The items export: one row per judge score, the judge's value and the reviewer's, each as the pages show
    // it (the boolean criterion's yes/no, the quality's number).
    const shown = (k: string, v: number) => (k.endsWith(`:${legible}`) ? (v === 1 ? "yes" : "no") : String(v));
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("link", { name: "Items CSV" }).click();
    const rows = parseCsv(fs.readFileSync(await (await downloadPromise).path(), "utf8"));
    const [header, ...body] = rows;
    const col = (name: string) => header!.indexOf(name);
    expect(col("Rita value")).toBeGreaterThan(0);
    expect(body).toHaveLength(6);
    for (const cells of body) {
      const k = `${cells[col("video_id")]}:${cells[col("category")]}`;
      expect(cells[col("run_id")]).toBe(run.id);
      expect(cells[col("judge_value")]).toBe(shown(k, judge.get(k)!));
      expect(cells[col("Rita value")]).toBe(shown(k, typed.get(k)!));
    }

    // Owners: archive and restore; no delete with runs; export the file; import one and delete it (no runs).
    await page.goto(`/projects/${projectId}/rubrics`);
    const listed = page.getByTestId("rubric-task").filter({ hasText: "Clip check" });
    await expect(listed.getByTestId("rubric-task-runs")).toHaveText("1");
    await expect(listed.getByRole("button", { name: "Delete Clip check" })).toBeDisabled();
    await clickUntil(listed.getByRole("button", { name: "Archive Clip check" }), () =>
      expect(listed.getByTestId("rubric-task-state")).toHaveText("archived", { timeout: 3_000 }),
    );
    await listed.getByRole("button", { name: "Restore Clip check" }).click();
    await expect(listed.getByTestId("rubric-task-state")).toHaveText("active");
    const exported = page.waitForEvent("download");
    await listed.getByRole("link", { name: "Export Clip check" }).click();
    const yaml = fs.readFileSync(await (await exported).path(), "utf8");
    expect(yaml).toContain("name: Clip check");
    expect(yaml).toContain("id: legible");
    await page.locator('input[type="file"]').setInputFiles("lib/rubrics/examples/on-screen-text.yaml");
    await expect(page.getByTestId("rubric-imported")).toBeVisible();
    await expect(page.getByTestId("rubric-task")).toHaveCount(2);
    const importedRow = page.getByTestId("rubric-task").filter({ hasNotText: "Clip check" });
    const importedName = (await importedRow.getByTestId("rubric-task-name").textContent())!;
    page.once("dialog", (dialog) => void dialog.accept());
    await importedRow.getByRole("button", { name: `Delete ${importedName}` }).click();
    await expect(page.getByTestId("rubric-task")).toHaveCount(1);
    await page.screenshot({ path: "test-results/rubric-tasks-owner.png", fullPage: true });

    // Viewers read the list and a definition, and change nothing.
    const viewerPage = await browser.newPage();
    await signedInPage(viewerPage, baseURL!, viewer);
    await viewerPage.goto(`/projects/${projectId}/rubrics`);
    await expect(viewerPage.getByTestId("rubric-task")).toHaveCount(1);
    await expect(viewerPage.getByRole("button", { name: "New rubric task" })).toHaveCount(0);
    await expect(viewerPage.getByRole("button", { name: "Archive Clip check" })).toHaveCount(0);
    const viewerEditor = viewerPage.getByTestId("rubric-editor");
    await clickUntil(viewerPage.getByRole("button", { name: "View Clip check" }), () =>
      expect(viewerEditor).toBeVisible({ timeout: 2_000 }),
    );
    await expect(viewerEditor.getByLabel("Criterion 2 id")).toHaveValue("legible");
    await expect(viewerEditor.getByLabel("Criterion 2 id")).toBeDisabled();
    await expect(viewerEditor.getByRole("button", { name: /Save/ })).toHaveCount(0);
    await viewerPage.screenshot({ path: "test-results/rubric-tasks-viewer.png", fullPage: true });
    await viewerPage.close();
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
