import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Issue 26 items 1–2 in the browser: an owner starts "samples 3 at temperature 0.7" from the judge form, the
// run list shows the ensemble (not its members), the run page lists each sample with its calls and cost and the
// samples' agreement per target, and the video page shows each sample's value beside the combined score.
test("an owner runs self-consistency samples and reads each sample's cost and values", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("ensembles");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 2, keyFrames: 2, name: "Sampled" },
    );

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub (simulated)");

    await page.getByTestId("run-judges").selectOption("samples");
    await page.getByTestId("run-samples").fill("3");
    await page.getByTestId("run-temperature").fill("0.7");
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run-started")).toContainText("Started on 2 videos");
    // One entry: the ensemble; its three member runs are listed on its page.
    await expect(page.getByTestId("run")).toHaveCount(1);
    const run = page.getByTestId("run").first();
    await expect(run.getByTestId("run-ensemble-badge")).toHaveText("3 samples at T 0.7");
    await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 90_000 });

    await run.getByRole("link", { name: /^Hallucination · / }).click();
    const summary = page.getByTestId("ensemble-summary");
    await expect(summary).toContainText("3 samples at temperature 0.7");
    await expect(summary.getByTestId("ensemble-member")).toHaveCount(3);
    for (const member of await summary.getByTestId("ensemble-member").all()) {
      await expect(member).toContainText("done");
      await expect(member.getByTestId("ensemble-member-cost")).toHaveText(/\$/);
    }
    await expect(summary.getByTestId("ensemble-target").first()).toBeVisible();
    const parentUrl = page.url();
    const parentId = parentUrl.split("/runs/")[1]!.split(/[?#]/)[0]!;

    // A member's page says whose sample it is.
    await summary.getByRole("link", { name: "sample 2" }).click();
    await expect(page.getByTestId("ensemble-membership")).toContainText("Sample 2 of");

    await page.goto(`/projects/${projectId}/videos/${videoIds[0]}?runId=${parentId}`);
    const values = page.getByTestId("ensemble-values");
    await expect(values).toBeVisible();
    await values.locator("summary").click();
    const score = values.getByTestId("ensemble-score").first();
    await expect(score).toContainText("sample 1:");
    await expect(score).toContainText("sample 3:");
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
