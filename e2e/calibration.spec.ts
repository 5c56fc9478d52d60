import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Checking a judge against published labels (docs/guide/label-sets.md), issue 14's whole flow: videos and a T2VHaluBench-style
// sheet, the stub judge run with the shipped prompts and with an edited prompt version, the paper's table, the
// two runs compared, and "what to label next" turned into a queue. The videos and their frames are seeded in
// the database (the import e2e covers importing them).
test("imports published labels, runs the stub judge with two prompt versions, opens the paper's table, compares the runs and queues what to label next", async ({
  page,
}) => {
  test.setTimeout(300_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("calibration");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 4, keyFrames: 1, name: "Calibration e2e" },
    );
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { fileName: `${i + 1}.mp4`, model: i < 2 ? "Sora" : "Pika" } });

    await signIn(page, owner.email, owner.password);
    // 1. The published labels.
    const workbook = new ExcelJS.Workbook();
    const ws = workbook.addWorksheet("Sheet1");
    ws.addRow([
      "Example",
      "Is_Hallucination",
      "Is_Prompt_Consistency",
      "Static_Hallucination",
      "Dynamic_Hallucination",
      "model",
    ]);
    ws.addRow(["1.mp4", 1, 1, "s1, s7", "d5", "Sora"]);
    ws.addRow(["2.mp4", 1, 0, "s3", "-", "Sora"]);
    ws.addRow(["3.mp4", 0, 1, "-", "-", "Pika"]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "framejury-calibration-")), "T2VHaluBench.xlsx");
    await workbook.xlsx.writeFile(file);
    await page.goto(`/projects/${projectId}/import`);
    const panel = page.getByTestId("label-set-panel");
    await panel.getByTestId("label-set-name").fill("T2VHaluBench authors");
    await expect(panel.getByTestId("label-set-file-name")).toHaveText("no file chosen");
    await panel.getByTestId("label-set-file").setInputFiles(file);
    // Issue 38 §5.11: the picker is a button in the app's style naming the chosen file, not the raw browser control.
    await expect(panel.getByTestId("label-set-file-name")).toHaveText("T2VHaluBench.xlsx");
    await expect(panel.getByText("Choose another file…")).toBeVisible();
    await panel.getByRole("button", { name: "Dry run" }).click();
    await expect(panel.getByTestId("label-set-plan")).toContainText("3 rows, 3 matched to videos");
    await panel.getByRole("button", { name: "Import" }).click();
    await expect(panel.getByTestId("label-set-message")).toContainText('Imported "T2VHaluBench authors"');

    // 2. The stub judge, twice: with the shipped prompts, then with an edited version of the inconsistency prompt.
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision");
    await page.getByLabel("API key").fill("sk-e2e");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub");
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run").first().getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    await page.goto(`/projects/${projectId}/prompts`);
    await page.getByRole("link", { name: "hallucination/inconsistency" }).click();
    await expect(page).toHaveURL(/template=hallucination%2Finconsistency/);
    const text = page.getByTestId("prompt-text");
    await expect(text).toHaveValue(/compare the inconsistency in the two descriptions/);
    await text.fill(
      `${(await text.inputValue()).replace(/\n$/, "")}\nBe strict: an object the prompt names but the frames lack is an inconsistency.\n`,
    );
    await expect(page.getByTestId("diff-added")).toContainText("Be strict");
    await page.getByTestId("prompt-save").click();
    await expect(page.getByTestId("prompt-saved")).toContainText("Saved as version");
    const version = await prisma.promptVersion.findFirstOrThrow({ where: { projectId } });
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByTestId("run-prompt-version-hallucination/inconsistency").selectOption(version.id);
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run")).toHaveCount(2);
    for (const i of [0, 1])
      await expect(page.getByTestId("run").nth(i).getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });

    // 3. The paper's table: one row per generator model and the overall row, with its LaTeX.
    await page.goto(`/projects/${projectId}/calibration`);
    await expect(page.getByTestId("calibration-summary")).toContainText("3 videos labelled in T2VHaluBench authors");
    const rows = page.getByTestId("paper-table-row");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText("Pika");
    await expect(rows.nth(1)).toContainText("Sora");
    await expect(rows.nth(2)).toContainText("Overall");
    await expect(page.getByTestId("category-table")).toContainText("s7 Motion and blur inconsistency");
    await expect(page.getByTestId("calibration-latex-source")).toHaveValue(
      /\\toprule[\s\S]*Overall &[\s\S]*\\bottomrule/,
    );
    // Issue 38 §5.9: the run picker's two labels differ, by the time to the second and by what differs (the edited prompt).
    const runOptions = await page.getByTestId("calibration-run").locator("option").allTextContents();
    expect(runOptions).toHaveLength(2);
    expect(new Set(runOptions).size).toBe(2);
    for (const label of runOptions) expect(label).toMatch(/\d{2}:\d{2}:\d{2} · /);
    expect(
      runOptions.filter((label) =>
        label.includes(`prompt hallucination/inconsistency edited ${version.hash.slice(0, 8)}`),
      ),
    ).toHaveLength(1);
    expect(runOptions.filter((label) => label.includes("prompt hallucination/inconsistency shipped"))).toHaveLength(1);
    const csv = await page.request.get((await page.getByTestId("calibration-csv").getAttribute("href"))!);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain("T2VHaluBench authors,");

    // 4. The two runs side by side, with what differs and whether the difference is real.
    await page.getByRole("link", { name: "Compare judge setups" }).click();
    const boxes = page.getByTestId("compare-run");
    await expect(boxes).toHaveCount(2);
    // Each run's label names what tells it from the other: its prompt version.
    const labels = page
      .getByTestId("compare-setups-form")
      .locator("label")
      .filter({ has: page.getByTestId("compare-run") });
    await expect(labels).toHaveCount(2);
    for (const label of await labels.all()) await expect(label).toContainText("prompt hallucination/inconsistency");
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole("button", { name: "Compare" }).click();
    await expect(page.getByTestId("compare-setups-summary")).toContainText(
      "3 videos judged by every run and labelled in T2VHaluBench authors",
    );
    const table = page.getByTestId("compare-setups-table");
    await expect(table.locator("thead th")).toHaveCount(3);
    await expect(table.locator("tr", { hasText: "prompt inconsistency" })).toContainText("differs");
    await expect(table.locator("tr", { hasText: "prompt inconsistency" })).toContainText(version.hash.slice(0, 12));
    await expect(page.getByTestId("template-diff")).toContainText("Be strict");
    await expect(page.getByTestId("compare-pairs").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByTestId("compare-pairs")).toContainText("p = ");

    // 5. What to label next on the edited run: the one video the sheet does not label, queued with one click.
    const edited = await prisma.judgeRun.findFirstOrThrow({
      where: { projectId, promptVersionIds: { equals: { "hallucination/inconsistency": version.id } } },
    });
    await page.goto(`/projects/${projectId}/runs/${edited.id}`);
    await page.getByTestId("label-next-link").click();
    await page.getByTestId("label-next-budget").fill("1");
    await page.getByTestId("label-next-propose").click();
    await expect(page.getByTestId("label-next-videos").locator("li")).toHaveCount(1);
    await expect(page.getByTestId("label-next-videos")).toContainText(
      (await prisma.video.findUniqueOrThrow({ where: { id: videoIds[3]! } })).relativePath,
    );
    await page.getByTestId("label-next-create-queue").click();
    await expect(page.getByTestId("queue-name")).toHaveText("Label next: 1 video");
    const queue = await prisma.reviewQueue.findFirstOrThrow({ where: { projectId }, include: { items: true } });
    expect(queue.items.map((i) => i.videoId)).toEqual([videoIds[3]]);
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
