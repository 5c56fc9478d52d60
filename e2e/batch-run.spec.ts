import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// A batch run from the browser: an owner marks the endpoint (the stub LLM, a test tool) as serving the
// Batch API, starts a hallucination run in batch mode, and follows it batch by batch until it is done.
test("an owner starts a batch run against the stub's Batch API and sees it complete", async ({ page }) => {
  test.setTimeout(180_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ batch: { completionDelayMs: 1500 } });
  try {
    const owner = await ownerWithProject("batch");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 2, keyFrames: 2, name: "Batched" },
    );

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub batch (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision-batch-e2e");
    await page.getByTestId("endpoint-batch-api").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub batch (simulated)");

    await page.getByTestId("run-batch").check();
    await page.getByRole("button", { name: "Start run" }).click();
    const run = page.getByTestId("run").first();
    await expect(run.getByTestId("run-batch-badge")).toHaveText("batch");
    await expect(run.getByTestId("run-batch")).toContainText(/batch 1: (in_progress|completed)/, { timeout: 60_000 });
    await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 150_000 });
    await expect(run.getByTestId("run-counts")).toContainText("20/20");
    await expect(run.getByTestId("run-batch")).toContainText(/batch [3-9]: completed, \d+\/\d+/);

    // Every call went in a batch: none reached the chat-completions route.
    expect(stub.requests).toHaveLength(0);
    expect(stub.batchLines).toHaveLength(20);
    expect(stub.batches.size).toBeGreaterThanOrEqual(3);
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
