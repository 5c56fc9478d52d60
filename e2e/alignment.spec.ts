import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

/*
 * Issue 26 item 4 in the browser: an owner aligns a rubric task's judge to a label set from the "Align a judge"
 * page. The stub LLM (a test tool) plays a judge with a planted bias and an optimizer that can fix it; the worker
 * runs the alignment job; the page follows its progress and shows the report: the split, every candidate with its
 * train score, held-out κ/F1 of the baseline and the best with the bootstrap interval, and the saved version.
 */
test("an owner runs an alignment from the page with the stub and reads its report", async ({ page, request }) => {
  test.setTimeout(300_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../lib/testing/judge-fixtures");
  const { startStubLlm } = await import("../lib/llm-stub/stub-server");
  const { createRubricTask } = await import("../lib/rubrics/rubric-tasks");
  const { createLabelSet } = await import("../lib/label-sets/label-sets");
  const { RUBRIC_STEP, rubricTargetId } = await import("../lib/rubrics/rubric-declaration");
  const stub = await startStubLlm({ latencyMs: 10 });
  try {
    const owner = await ownerWithProject("alignment");
    const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const actor = { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false };
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, { videoCount: 20, keyFrames: 1, name: "Alignment e2e" });
    videoIds.sort();
    for (const [i, id] of videoIds.entries()) await prisma.video.update({ where: { id }, data: { prompt: `Clip ${i} [sim-truth=${1 + (i % 5)}]` } });
    const task = await createRubricTask(prisma, actor, projectId, {
      definition: {
        name: "Defects",
        frames: { mode: "key_frames" },
        criteria: [{ id: "defects", name: "Defects", type: "numeric", min: 1, max: 5, step: 1, positiveAtLeast: 4, definition: "How defective, 1 none to 5 severe." }],
        prompt: "{{prompt}} {{frames}}\n{{criteria}}",
      },
    });
    const target = rubricTargetId(task.key, "defects");
    await createLabelSet(
      prisma,
      actor,
      projectId,
      { name: "Truth", format: "generic", fileName: "truth.csv", sha256: "0".repeat(64), citation: "" },
      videoIds.map((videoId, i) => ({
        target: { task: task.pipeline, targetType: "score", target, videoId, itemId: "", stepId: RUBRIC_STEP, scopeIndex: 0, frameSetId: "" },
        value: 1 + (i % 5),
        annotator: null,
      })),
    );
    // Through the API: the server allows endpoints on this machine (ALLOW_PRIVATE_ENDPOINTS), this process does not.
    const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
    const endpoint = await request.post(`/api/v1/projects/${projectId}/endpoints`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: { name: "Stub (simulated)", baseUrl: stub.baseURL, model: "stub-vision", apiKey: null, maxConcurrency: 4 },
    });
    expect(endpoint.ok()).toBe(true);

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/rubrics`);
    await page.getByRole("link", { name: "Align a judge to a label set" }).click();
    await expect(page.getByRole("heading", { name: "Align a judge", level: 1 })).toBeVisible();
    const form = page.getByRole("form", { name: "Start an alignment" });
    // The label wraps its select, so its text runs on into the options: matched by how it starts.
    await expect(form.getByLabel(/^Task/)).toHaveValue(task.id);
    await form.getByLabel("Maximum calls").fill("300");
    await form.getByRole("button", { name: "Start alignment" }).click();
    await expect(page).toHaveURL(/alignment\?id=/);
    await expect(page.getByTestId("alignment-status")).toHaveText("done", { timeout: 180_000 });
    const report = page.getByRole("region", { name: "Alignment report" });
    await expect(report).toContainText("Split: 12 train, 8 held-out videos");
    expect(await page.getByTestId("alignment-candidate").count()).toBeGreaterThan(1);
    await expect(page.getByTestId("alignment-candidate").first()).toContainText("baseline");
    await expect(page.getByTestId("alignment-held-out")).toContainText("Best − baseline");
    await expect(report).toContainText("saved as version 2 of the rubric task");
    // The split itself, by video, and the link to the saved version.
    await report.getByText(/^Split: 12 train/).click();
    await expect(page.getByTestId("alignment-split-held-out").getByRole("link")).toHaveCount(8);
    await expect(page.getByTestId("alignment-saved-version")).toHaveAttribute("href", `/projects/${projectId}/rubrics#rubric-${task.id}-v2`);
    const version = await prisma.rubricVersion.findFirstOrThrow({ where: { rubricTaskId: task.id, number: 2 } });
    expect(JSON.stringify(version.definition)).toContain("Compression artefacts are not defects.");
  } finally {
    await stub.close();
  }
});
