import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// The judge loop in the browser: an owner adds an endpoint (the stub LLM, a test tool), starts a
// hallucination run, follows its progress, and reads the scores and the calls behind them.
test("an owner adds an endpoint, runs the hallucination pipeline and inspects the calls", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../lib/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../lib/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 20 });
  try {
    const owner = await ownerWithProject("judge");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, { userId: user.id, email: user.email, name: user.name, isAdmin: false }, { videoCount: 2, keyFrames: 2, name: "Judged" });

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision");
    await page.getByLabel("API key").fill("sk-e2e-never-shown");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub (simulated)");
    await expect(page.getByTestId("endpoint-list")).toContainText("stored (encrypted)");
    expect(await page.content()).not.toContain("sk-e2e-never-shown");

    await page.getByRole("button", { name: "Start run" }).click();
    const run = page.getByTestId("run").first();
    await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    await expect(run).toContainText("simulated judgments");
    await expect(run.getByTestId("run-counts")).toContainText("20/20");

    await run.getByRole("link", { name: /^Hallucination · / }).click();
    await expect(page.getByTestId("run-video")).toHaveCount(2);
    const overall = await page.getByTestId("run-video").first().locator("td").nth(5).textContent();
    expect(Number(overall)).toBeGreaterThanOrEqual(0);
    expect(Number(overall)).toBeLessThanOrEqual(100);

    await page.getByTestId("run-video").first().getByRole("link", { name: "calls" }).click();
    await expect(page.getByTestId("inspector-step")).toHaveCount(10);
    const first = page.getByTestId("inspector-step").first();
    await first.locator("summary").click();
    await expect(first.getByTestId("raw-response")).toBeVisible();
    await expect(first.locator("pre").first()).toContainText(/objects|changes|scores|summary|score/);

    // On the video page the owner, as a reviewer, gives their own value for a judge score.
    await page.goto(`/projects/${projectId}/videos/${videoIds[0]}`);
    const cell = page.getByTestId("score-cell").first();
    await expect(cell).toBeVisible();
    const judgeValue = Number(await cell.textContent());
    const myValue = judgeValue === 2 ? 3 : 2;
    await cell.click();
    await page.getByLabel("Your value").fill(String(myValue));
    await page.getByLabel("Note").fill("looks fine to me");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("score-cell").first()).toHaveText(String(myValue));
    const reviews = (await (await page.request.get(`/api/v1/videos/${videoIds[0]}/reviews`)).json()) as { judgments: { value: number; judge: { value: number } }[] };
    expect(reviews.judgments).toHaveLength(1);
    expect(reviews.judgments[0]).toMatchObject({ value: myValue, judge: { value: judgeValue } });
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});

// Endpoints reused across a user's projects: the owner's second project picks the first project's endpoint,
// which is copied on the server with its key (never shown), and works there.
test("an owner's new project uses the endpoint of their first project without typing its key again", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../lib/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const stub = await startStubLlm({ latencyMs: 20 });
  try {
    const owner = await ownerWithProject("reuse");
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${owner.projectId}/judge`);
    await page.getByLabel("Name").fill("Stub to reuse");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision");
    await page.getByLabel("API key").fill("sk-e2e-reused-never-shown");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub to reuse");

    // A second project, made on the projects page.
    await page.goto("/");
    await page.getByLabel("Name").fill("reuse second project");
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page.getByTestId("project-name")).toHaveText("reuse second project");
    const secondId = new URL(page.url()).pathname.split("/").pop()!;

    await page.goto(`/projects/${secondId}/judge`);
    await expect(page.getByTestId("endpoint-list")).not.toContainText("Stub to reuse");
    const picker = page.getByTestId("reuse-endpoint");
    await picker.getByLabel("Use an endpoint from another of your projects").selectOption({ label: `Stub to reuse · stub-vision · ${stub.baseURL} · key stored` });
    await picker.getByRole("button", { name: "Use this endpoint" }).click();
    const copied = page.getByTestId("endpoint-item").filter({ hasText: "Stub to reuse" });
    await expect(copied).toContainText("stored (encrypted)");
    expect(await page.content()).not.toContain("sk-e2e-reused-never-shown");

    // The copy is the second project's own endpoint, with its own encryption of the same key, and it answers.
    const [original, copy] = await Promise.all([
      prisma.judgeEndpoint.findFirstOrThrow({ where: { projectId: owner.projectId, name: "Stub to reuse" } }),
      prisma.judgeEndpoint.findFirstOrThrow({ where: { projectId: secondId, name: "Stub to reuse" } }),
    ]);
    expect(copy.id).not.toBe(original.id);
    expect(copy.apiKeyEncrypted).not.toBeNull();
    expect(copy.apiKeyEncrypted).not.toBe(original.apiKeyEncrypted);
    await copied.getByRole("button", { name: "Test" }).click();
    await expect(copied.getByTestId("test-answered")).toHaveText("yes", { timeout: 30_000 });
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
