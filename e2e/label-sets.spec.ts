import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// A T2VHaluBench-style label sheet with the published sheet's kinds of mistake, imported on the Import
// page as a label set: the dry run lists the interpreted cells, the import stores it, and the agreement
// dashboard shows it as an annotator beside the (absent) live reviewers. The run is seeded in the database.
test("imports a T2VHaluBench sheet as a label set and shows it as an annotator in agreement", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  try {
    const owner = await ownerWithProject("label-sets");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const ownerActor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, ownerActor, {
      videoCount: 3,
      keyFrames: 1,
      name: "Label sets e2e",
    });
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { fileName: `${i + 1}.mp4` } });
    // The judge: yes, yes, no.
    await seedFinishedRun(prisma, ownerActor, projectId, videoIds, {
      scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 5 }],
      outcome: (v) => ({ verdict: v < 2, overall: v < 2 ? 40 : 80 }),
    });

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
    ws.addRow(["1.mp4", 1, 1, "s1. s7", "d5, s2", "Sora"]); // '.' between codes; a static code in the dynamic column
    ws.addRow([" 2.mp4", 1, 0, "s3", "-", "Sora"]); // stray space
    ws.addRow(["3.mp4", 1, 1, "-", "-", "Sora"]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "framejury-labels-")), "T2VHaluBench.xlsx");
    await workbook.xlsx.writeFile(file);

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/import`);
    const panel = page.getByTestId("label-set-panel");
    await panel.getByTestId("label-set-name").fill("T2VHaluBench authors");
    await panel.getByTestId("label-set-file").setInputFiles(file);
    await panel.getByRole("button", { name: "Dry run" }).click();
    const plan = panel.getByTestId("label-set-plan");
    await expect(plan).toContainText("3 rows, 3 matched to videos");
    const issues = panel.getByTestId("label-set-issue");
    await expect(issues).toHaveCount(3);
    await expect(issues.nth(0)).toContainText("'.' read as ',' between codes");
    await expect(issues.nth(1)).toContainText("s2 is a static code");
    await expect(issues.nth(2)).toContainText("stray spaces around the cell");
    expect(await prisma.labelSet.count({ where: { projectId } })).toBe(0);

    await panel.getByRole("button", { name: "Import" }).click();
    await expect(panel.getByTestId("label-set-message")).toContainText('Imported "T2VHaluBench authors"');
    await expect(panel.getByTestId("label-set")).toContainText("T2VHaluBench authors");

    // The overview counts the label set's judgments as a label set's, not as a reviewer's (the owner gave none).
    await page.goto(`/projects/${projectId}`);
    await expect(page.getByTestId("judgment-counts")).toHaveText(/^\d+ judgments from 1 label set · 0 yours$/);

    await page.goto(`/projects/${projectId}/agreement?view=details`);
    const row = page.getByTestId("label-set-annotator");
    await expect(row).toContainText("T2VHaluBench authors");
    await expect(row).toContainText("label set");
    // Its verdicts (yes, yes, yes) against the judge's (yes, yes, no), and its s1 presence labels (present,
    // absent, absent; the run scored only s1) against the judge's presence read off its s1 scores: 6 targets.
    await expect(row.locator("td").nth(1)).toHaveText("6");
    // The presence sweep: the chosen t and every t from 0 to 10 against the label set.
    await expect(page.getByTestId("presence-threshold").first()).toContainText("Chosen t = 5");
    const curve = page.getByTestId("presence-curve").filter({ hasText: "T2VHaluBench authors" });
    await expect(curve).toContainText("n = 3");
    await expect(curve.getByTestId("presence-point")).toHaveCount(11);
    await expect(curve.locator('[data-threshold="5"]')).toContainText("(chosen)");
  } finally {
    await prisma.$disconnect();
  }
});
