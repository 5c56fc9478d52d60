import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// A run against a server that answers without `usage` (many OpenAI-compatible servers): the run page says
// the cost and tokens are unknown, never $0 and 0 tokens.
test("a run whose answers carry no usage shows its cost and tokens as unknown", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 20 });
  stub.addFault({ fault: { kind: "no_usage" }, times: 1_000_000 });
  try {
    const owner = await ownerWithProject("provider-answers");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 1, keyFrames: 2, name: "No usage" },
    );

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub without usage (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-no-usage-e2e");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub without usage (simulated)");

    await page.getByRole("button", { name: "Start run" }).click();
    const run = page.getByTestId("run").first();
    await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    const counts = run.getByTestId("run-counts");
    await expect(counts).toContainText("10/10");
    await expect(counts).toContainText("unknown (10 calls without usage)");
    await expect(counts).not.toContainText("$0.0000");
  } finally {
    await stub.close();
  }
});
