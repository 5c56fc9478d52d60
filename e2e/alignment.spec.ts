import { expect, test, type APIRequestContext } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";
import { projectAccess } from "@/lib/authz/permissions";

/** An owner with a project of framed videos (sorted by id), made in this process on the e2e database. */
async function ownerWithFramedVideos(label: string, videoCount: number) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const owner = await ownerWithProject(label);
  const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
    videoCount,
    keyFrames: 1,
    name: `${label} e2e`,
  });
  videoIds.sort();
  return { prisma, owner, actor, projectId, videoIds };
}

/** The stub LLM as the project's endpoint, through the API: the server allows endpoints on this machine (ALLOW_PRIVATE_ENDPOINTS), this process does not. */
async function addStubEndpoint(request: APIRequestContext, ownerEmail: string, projectId: string, baseURL: string) {
  const ownerKey = (await cli("create-api-key", "--email", ownerEmail)).trim();
  const endpoint = await request.post(`/api/v1/projects/${projectId}/endpoints`, {
    headers: { authorization: `Bearer ${ownerKey}` },
    data: { name: "Stub (simulated)", baseUrl: baseURL, model: "stub-vision", apiKey: null, maxConcurrency: 4 },
  });
  expect(endpoint.ok()).toBe(true);
}

/*
 * Issue 26 item 4 in the browser: an owner aligns a rubric task's judge to a label set from the "Align a judge"
 * page. The stub LLM (a test tool) plays a judge with a planted bias and an optimizer that can fix it; the worker
 * runs the alignment job; the page follows its progress and shows the report: the split, every candidate with its
 * train score, held-out κ/F1 of the baseline and the best with the bootstrap interval, and the saved version.
 */
test("an owner runs an alignment from the page with the stub and reads its report", async ({ page, request }) => {
  test.setTimeout(300_000);
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { createRubricTask } = await import("../lib/rubrics/rubric-tasks");
  const { createLabelSet } = await import("../lib/label-sets/label-sets");
  const { RUBRIC_STEP } = await import("../lib/rubrics/rubric-calls");
  const { rubricTargetId } = await import("../lib/rubrics/rubric-declaration");
  const stub = await startStubLlm({ latencyMs: 10 });
  try {
    const { prisma, owner, actor, projectId, videoIds } = await ownerWithFramedVideos("alignment", 20);
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { prompt: `Clip ${i} [sim-truth=${1 + (i % 5)}]` } });
    const task = await createRubricTask(prisma, await projectAccess(prisma, actor, projectId, "rubrics.manage"), {
      definition: {
        name: "Defects",
        frames: { mode: "key_frames" },
        criteria: [
          {
            id: "defects",
            name: "Defects",
            type: "numeric",
            min: 1,
            max: 5,
            step: 1,
            positiveAtLeast: 4,
            definition: "How defective, 1 none to 5 severe.",
          },
        ],
        prompt: "{{prompt}} {{frames}}\n{{criteria}}",
      },
    });
    const target = rubricTargetId(task.key, "defects");
    await createLabelSet(
      prisma,
      await projectAccess(prisma, actor, projectId, "videos.import"),
      { name: "Truth", format: "generic", fileName: "truth.csv", sha256: "0".repeat(64), citation: "" },
      videoIds.map((videoId, i) => ({
        target: {
          task: task.pipeline,
          targetType: "score",
          target,
          videoId,
          itemId: "",
          stepId: RUBRIC_STEP,
          scopeIndex: 0,
          frameSetId: "",
        },
        value: 1 + (i % 5),
        annotator: null,
      })),
    );
    await addStubEndpoint(request, owner.email, projectId, stub.baseURL);

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
    await expect(page.getByTestId("alignment-saved-version")).toHaveAttribute(
      "href",
      `/projects/${projectId}/rubrics#rubric-${task.id}-v2`,
    );
    const version = await prisma.rubricVersion.findFirstOrThrow({ where: { rubricTaskId: task.id, number: 2 } });
    expect(JSON.stringify(version.definition)).toContain("Compression artefacts are not defects.");
  } finally {
    await stub.close();
  }
});

/*
 * A built-in task's reviewed metric in the browser: an owner aligns hallucination's verdict (labels of it in a label
 * set) through the static-hallucination step's prompt, reads the tuned run settings in the report and makes them the
 * project's defaults for new runs; a reviewer reads the same report without the button.
 */
test("an owner aligns hallucination's verdict from the page and applies the tuned run settings", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(300_000);
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { createLabelSet } = await import("../lib/label-sets/label-sets");
  const stub = await startStubLlm({ latencyMs: 10 });
  try {
    const { prisma, owner, actor, projectId, videoIds } = await ownerWithFramedVideos("alignment-verdict", 30);
    // SIM_VERDICT_RULES (a test tool): even clips hallucinate; half the others are overrated by the static judge.
    const hallucinates = (i: number) => i % 2 === 0;
    for (const [i, id] of videoIds.entries()) {
      const inflated = !hallucinates(i) && Math.floor(i / 2) % 2 === 0;
      await prisma.video.update({
        where: { id },
        data: { prompt: `Clip ${i} [sim-verdict=${hallucinates(i) ? 1 : 0}]${inflated ? " [sim-inflate]" : ""}` },
      });
    }
    await createLabelSet(
      prisma,
      await projectAccess(prisma, actor, projectId, "videos.import"),
      { name: "Verdicts", format: "generic", fileName: "verdicts.csv", sha256: "2".repeat(64), citation: "" },
      videoIds.map((videoId, i) => ({
        target: {
          task: "hallucination",
          targetType: "verdict",
          target: "verdict",
          videoId,
          itemId: "",
          stepId: "",
          scopeIndex: 0,
          frameSetId: "",
        },
        value: hallucinates(i) ? 1 : 0,
        annotator: null,
      })),
    );
    await addStubEndpoint(request, owner.email, projectId, stub.baseURL);

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/alignment`);
    const form = page.getByRole("form", { name: "Start an alignment" });
    await form.getByLabel(/^Task/).selectOption("builtin:hallucination");
    // The categories per key frame and per cluster are offered on their own (issue 38 §3).
    await expect(form.getByLabel(/^Criterion or target/).locator('option[value="s3"]')).toHaveText(
      /\(per key frame\)$/,
    );
    await expect(form.getByLabel(/^Criterion or target/).locator('option[value="d2"]')).toHaveText(/\(per cluster\)$/);
    await form.getByLabel(/^Criterion or target/).selectOption("verdict");
    await form.getByLabel(/^Rewrite the prompt of step/).selectOption("static_hallucination");
    await form.getByLabel("Maximum calls").fill("2000");
    await form.getByRole("button", { name: "Start alignment" }).click();
    await expect(page).toHaveURL(/alignment\?id=/);
    const alignmentUrl = page.url();
    await expect(page.getByTestId("alignment-status")).toHaveText("done", { timeout: 240_000 });
    const report = page.getByRole("region", { name: "Alignment report" });
    await expect(report).toContainText("Split: 18 train, 12 held-out videos");
    await expect(
      page.getByTestId("alignment-candidate").filter({ hasText: "summarised with aggregation" }).first(),
    ).toContainText("settings");
    const settings = page.getByTestId("alignment-best-settings");
    await expect(settings).toContainText("verdict.threshold");

    // A reviewer reads the report, without the button.
    const reviewerEmail = `reviewer-${Date.now()}@example.test`;
    await cli("create-user", "--email", reviewerEmail, "--password", "correct horse battery");
    await cli("add-member", "--email", reviewerEmail, "--project", projectId, "--role", "reviewer");
    const reviewerContext = await browser.newContext();
    const reviewerPage = await reviewerContext.newPage();
    await signIn(reviewerPage, reviewerEmail, "correct horse battery");
    await reviewerPage.goto(alignmentUrl);
    await expect(reviewerPage.getByTestId("alignment-best-settings")).toContainText(
      "An owner can make them the defaults for new runs.",
    );
    await reviewerContext.close();

    await settings.getByRole("button", { name: "Use as the defaults for new runs" }).click();
    await expect(settings).toContainText("They are the project's defaults for new runs.");
    const project = await prisma.project.findUniqueOrThrow({
      where: { id: projectId },
      select: { judgeSettings: true },
    });
    const saved = (project.judgeSettings as { hallucination?: { verdict?: { threshold?: number } } }).hallucination;
    expect(saved?.verdict?.threshold).toBeGreaterThan(5);
  } finally {
    await stub.close();
  }
});
