import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Issue 14 in the browser: an owner edits a prompt template (seeing the diff against the shipped one),
// runs the hallucination judge with the shipped and with the edited version (stub LLM), asks which
// videos to label next and turns the proposal into a review queue with one click.
test("edits a prompt, runs with the new version, proposes videos to label and queues them", async ({ page }) => {
  // Two judge runs and five page loads on a shared machine.
  test.setTimeout(240_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  process.env.ALLOW_PRIVATE_ENDPOINTS = "1";
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { createEndpoint } = await import("../lib/judge/endpoints/endpoints");
  const { reviewVideoOutcome } = await import("../lib/reviews/reviews");
  const { projectAccess } = await import("../lib/authz/permissions");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("prompts");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
      videoCount: 4,
      keyFrames: 1,
      name: "Prompt versions e2e",
    });
    await createEndpoint(prisma, await projectAccess(prisma, actor, projectId, "endpoints.manage"), {
      name: "Stub (simulated)",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });

    // 1. Edit the inconsistency template: the diff shows the added line before anything is saved.
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}`);
    await page.getByTestId("project-nav-prompts").click();
    await page.getByRole("link", { name: "hallucination/inconsistency" }).click();
    await expect(page).toHaveURL(/template=hallucination%2Finconsistency/);
    await expect(page.getByText("hallucination/inconsistency · shipped")).toBeVisible();
    await expect(page.getByTestId("prompt-diff-none")).toBeVisible();
    const text = page.getByTestId("prompt-text");
    await expect(text).toHaveValue(/compare the inconsistency in the two descriptions/);
    await text.fill(
      `${(await text.inputValue()).replace(/\n$/, "")}\nBe strict: an object the prompt names but the frames lack is an inconsistency.\n`,
    );
    await expect(page.getByTestId("diff-added")).toHaveCount(1);
    await expect(page.getByTestId("diff-added")).toContainText("Be strict");
    await expect(page.getByTestId("prompt-diff-stats")).toContainText("+1 −0");
    await page.getByTestId("prompt-note").fill("stricter");
    await page.getByTestId("prompt-save").click();
    await expect(page.getByTestId("prompt-saved")).toContainText("Saved as version");
    await expect(page.getByTestId("prompt-version")).toHaveCount(1);
    const version = await prisma.promptVersion.findFirstOrThrow({ where: { projectId } });
    await expect(page.getByTestId("prompt-version-hash")).toHaveText(version.hash.slice(0, 12));

    // 2. Run with the shipped templates, then with the edited one: only the edited step calls the model again.
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run")).toHaveCount(1);
    await expect(page.getByTestId("run").first().getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    const shippedCalls = stub.requests.length;
    expect(shippedCalls).toBe(4 * 6);
    await page.getByTestId("run-prompt-version-hallucination/inconsistency").selectOption(version.id);
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run")).toHaveCount(2);
    await expect(page.getByTestId("run").first().getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    expect(stub.requests.slice(shippedCalls).map((r) => r.rule)).toEqual(Array(4).fill("inconsistency-check"));
    const runs = await prisma.judgeRun.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
    expect(runs.map((r) => r.promptVersionIds)).toEqual([{}, { "hallucination/inconsistency": version.id }]);
    const edited = await prisma.stepResult.findFirstOrThrow({ where: { runId: runs[1]!.id, stepId: "inconsistency" } });
    expect(edited.templateHash).toBe(version.hash);

    // 3. One human label so far; ask for 2 more on the edited run's page.
    const judge = await prisma.runMetric.findFirstOrThrow({
      where: { runId: runs[1]!.id, videoId: videoIds[0]!, metric: "verdict" },
    });
    await reviewVideoOutcome(
      prisma,
      await projectAccess(prisma, actor, projectId, "scores.review"),
      runs[1]!.id,
      videoIds[0]!,
      "verdict",
      { value: judge.value },
    );
    await page.goto(`/projects/${projectId}/runs/${runs[1]!.id}`);
    await expect(page.getByTestId("run-prompt-versions")).toContainText(
      `hallucination/inconsistency ${version.hash.slice(0, 12)} (edited)`,
    );
    await page.getByTestId("label-next-link").click();
    await page.getByTestId("label-next-budget").fill("2");
    await page.getByTestId("label-next-propose").click();
    await expect(page.getByTestId("label-next-videos").locator("li")).toHaveCount(2);
    await expect(page.getByTestId("label-next-current")).toContainText("%");
    await expect(page.getByTestId("label-next-expected")).toContainText("%");
    const proposed = await page.getByTestId("label-next-videos").locator("li").allTextContents();

    // 4. One click: a queue of exactly those videos.
    await page.getByTestId("label-next-create-queue").click();
    await expect(page.getByTestId("queue-name")).toHaveText("Label next: 2 videos");
    await expect(page.getByTestId("queue-chosen-by")).toHaveText("what to label next (2)");
    const queue = await prisma.reviewQueue.findFirstOrThrow({
      where: { projectId },
      include: { items: { orderBy: { position: "asc" } } },
    });
    const paths = new Map((await prisma.video.findMany({ where: { projectId } })).map((v) => [v.id, v.relativePath]));
    expect(queue.items.map((i) => paths.get(i.videoId))).toEqual(proposed);
    expect(queue.items.map((i) => i.videoId)).not.toContain(videoIds[0]);
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
