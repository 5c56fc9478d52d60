import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// The judge loop in the browser: an owner adds an endpoint (the stub LLM, a test tool), starts a
// hallucination run, follows its progress, and reads the scores and the calls behind them.
test("an owner adds an endpoint, runs the hallucination pipeline and inspects the calls", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 20 });
  try {
    const owner = await ownerWithProject("judge");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 2, keyFrames: 2, name: "Judged" },
    );
    // Numbered names that plain string order puts 10 before 2: the run page lists them naturally.
    await prisma.video.update({
      where: { id: videoIds[0] },
      data: { relativePath: "Judged/clip-10.mp4", fileName: "clip-10.mp4" },
    });
    await prisma.video.update({
      where: { id: videoIds[1] },
      data: { relativePath: "Judged/clip-2.mp4", fileName: "clip-2.mp4" },
    });

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
    // Issue 38 §5.6: natural order, a legend of the columns and the run's own export links.
    await expect(page.getByTestId("run-video").nth(0).getByRole("link", { name: "clip-2.mp4" })).toBeVisible();
    await expect(page.getByTestId("run-video").nth(1).getByRole("link", { name: "clip-10.mp4" })).toBeVisible();
    const legend = page.getByTestId("run-metrics-legend");
    await expect(legend).toBeVisible();
    for (const metric of ["I", "S", "D", "overall"])
      await expect(legend.locator(`[data-testid="run-metrics-legend-entry"][data-metric="${metric}"]`)).toBeVisible();
    const runId = new URL(page.url()).pathname.split("/").at(-1)!;
    const exports = page.getByTestId("run-exports").getByTestId("export-link");
    await expect(exports).toHaveText([
      "Items CSV",
      "Items JSONL",
      "Hugging Face dataset (.tar)",
      "Label Studio tasks",
      "Label Studio config",
    ]);
    for (const href of await exports.evaluateAll((links) => links.map((link) => link.getAttribute("href")!)))
      expect(new URL(href, page.url()).searchParams.get("runId")).toBe(runId);
    const itemsCsv = await page.request.get((await exports.first().getAttribute("href"))!);
    expect(itemsCsv.status()).toBe(200);
    expect(itemsCsv.headers()["content-type"]).toContain("text/csv");
    // Video, generator, status, I, S, D, overall.
    const overall = await page.getByTestId("run-video").first().locator("td").nth(6).textContent();
    expect(Number(overall)).toBeGreaterThanOrEqual(0);
    expect(Number(overall)).toBeLessThanOrEqual(100);

    await page.getByTestId("run-video").first().getByRole("link", { name: "calls" }).click();
    await expect(page.getByTestId("inspector-step")).toHaveCount(10);
    const first = page.getByTestId("inspector-step").first();
    await first.locator("summary").click();
    await expect(first.getByTestId("raw-response")).toBeVisible();
    await expect(first.locator("pre").first()).toContainText(/objects|changes|scores|summary|score/);
    // What the call showed the judge: its frames as a strip with their times, then the body a replay would send.
    const strip = first.getByTestId("call-frame-strip");
    await expect(strip.getByRole("img").first()).toBeVisible();
    expect(await strip.getByRole("img").first().getAttribute("src")).toMatch(/^\/api\/v1\/frames\/[^/]+\/image$/);
    await expect(strip.getByTestId("call-frame-time").first()).toHaveText(/^\d+\.\d\d s$/);
    await expect(first.getByTestId("call-bytes-sent").first()).toContainText(/sent/);
    await first.getByRole("button", { name: "Show the request body" }).first().click();
    await expect(first.getByTestId("replay-body").first()).toContainText('"model"');

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
    // The heat map's number and tint come from one source (issue 38 §5.5): the judge's by default, then yours,
    // then yours minus the judge's, switched with the toggle above the map.
    const firstCell = page.getByTestId("score-cell").first();
    await expect(firstCell).toHaveText(String(judgeValue));
    await expect(page.getByTestId("heat-map-view-judge")).toHaveAttribute("aria-checked", "true");
    const judgeAlpha = await firstCell.getAttribute("data-alpha");
    await page.getByTestId("heat-map-view-mine").click();
    await expect(firstCell).toHaveText(String(myValue));
    await expect(firstCell).not.toHaveAttribute("data-alpha", judgeAlpha!);
    await page.getByTestId("heat-map-view-difference").click();
    const difference = myValue - judgeValue;
    await expect(firstCell).toHaveText(difference > 0 ? `+${difference}` : `−${-difference}`);
    await page.getByTestId("heat-map-view-judge").click();
    await expect(firstCell).toHaveText(String(judgeValue));
    const reviews = (await (await page.request.get(`/api/v1/videos/${videoIds[0]}/reviews`)).json()) as {
      judgments: { value: number; judge: { value: number } }[];
    };
    expect(reviews.judgments).toHaveLength(1);
    expect(reviews.judgments[0]).toMatchObject({ value: myValue, judge: { value: judgeValue } });
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});

// Endpoints reused across a user's projects: the owner's second project picks the first project's endpoint,
// which is copied on the server with its key (never shown), and works there.
test("an owner's new project uses the endpoint of their first project without typing its key again", async ({
  page,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
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
    await picker
      .getByLabel("Use an endpoint from another of your projects")
      .selectOption({ label: `Stub to reuse · from reuse project · stub-vision · key stored · ${stub.baseURL}` });
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
