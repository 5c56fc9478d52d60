import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";
import { HALLUCINATION_TASK } from "../lib/tasks/hallucination/task";
import { createRunVideo } from "../testkit/testing/run-video-fixture";

// Every category code names itself: on the video page's heat map (hover or keyboard focus), in a
// legend of all 20 hallucination codes with their definitions, beside each review control, in the
// new-queue category picker and in the video list's category filter. Names and definitions come
// from the task declaration, so the test reads them from there rather than repeating them.

const s7 = HALLUCINATION_TASK.targets.find((t) => t.id === "s7")!;

test("every code shows its name and definition: heat map, legend, review screen, queue picker, list filter", async ({
  page,
  request,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  try {
    const owner = await ownerWithProject("legend-owner");
    const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false },
      { videoCount: 1, keyFrames: 1, name: "Legend" },
    );
    const videoId = videoIds[0]!;
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: ownerUser.id },
    });
    const run = await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: ownerUser.id,
        status: "done",
      },
    });
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId } });
    const staticScores = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i + 1}`, i === 6 ? 7 : 1]));
    const step = await prisma.stepResult.create({
      data: {
        runId: run.id,
        videoId,
        stepId: "static_hallucination",
        scopeIndex: 0,
        status: "done",
        templateId: "t",
        output: { scores: staticScores },
      },
    });
    await prisma.score.createMany({
      data: Object.entries(staticScores).map(([category, value]) => ({
        runId: run.id,
        videoId,
        stepResultId: step.id,
        stepId: "static_hallucination",
        scopeIndex: 0,
        category,
        value,
      })),
    });
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { S: 7, D: 0, I: 0, overall: 72, hallucination: true, complete: true },
      metrics: { S: 7, D: 0, I: 0, overall: 72, verdict: true },
    });

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/videos/${videoId}`);

    // The heat map's s7 column: its name in the title, and a tooltip with name and definition on keyboard focus.
    const s7Code = page.locator('[data-testid="heat-map-column"][data-code="s7"] [data-testid="code-with-name"]');
    await expect(s7Code).toHaveText("s7");
    await expect(s7Code).toHaveAttribute("title", `s7 · ${s7.label}: ${s7.definition}`);
    const tooltip = page.locator('[data-testid="heat-map-column"][data-code="s7"] [data-testid="code-tooltip"]');
    await expect(tooltip).toBeHidden();
    await s7Code.focus();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(`s7 · ${s7.label}`);
    await expect(tooltip).toContainText(s7.definition);
    await expect(s7Code).toHaveAttribute("aria-describedby", (await tooltip.getAttribute("id"))!);
    await s7Code.blur();
    await expect(tooltip).toBeHidden();
    await page.locator('[data-testid="heat-map-column"][data-code="s1"] [data-testid="code-with-name"]').hover();
    await expect(
      page.locator('[data-testid="heat-map-column"][data-code="s1"] [data-testid="code-tooltip"]'),
    ).toBeVisible();
    // The cell itself: its title names the code, and the declared positive rule (≥ 5) marks it.
    const cell = page.locator('[data-testid="score-cell"][data-category="s7"]');
    await expect(cell).toHaveAttribute("title", new RegExp(`^s7 · ${s7.label}: judge 7`));
    await expect(cell).toHaveAttribute("data-positive", "true");
    await expect(page.locator('[data-testid="score-cell"][data-category="s1"]')).toHaveAttribute(
      "data-positive",
      "false",
    );
    // The picked score shows its definition next to its editor.
    await cell.click();
    await expect(page.getByTestId("score-detail")).toContainText(`s7 · ${s7.label}`);
    await expect(page.getByTestId("score-definition")).toHaveText(s7.definition);

    // The legend: all 20 codes, grouped, each with its name and definition.
    const legend = page.getByTestId("target-legend");
    await legend.locator("summary").click();
    await expect(legend.getByTestId("legend-entry")).toHaveCount(20);
    expect(HALLUCINATION_TASK.targets).toHaveLength(20);
    for (const target of HALLUCINATION_TASK.targets) {
      const entry = legend.locator(`[data-testid="legend-entry"][data-code="${target.id}"]`);
      await expect(entry.locator("dt")).toHaveText(`${target.id} · ${target.label}`);
      await expect(entry.locator("dd")).toHaveText(target.definition);
    }
    await expect(legend.getByTestId("legend-section").locator("h4")).toHaveText([
      "Static (per key frame)",
      "Dynamic (per cluster)",
      "Prompt consistency",
    ]);

    // The video list's category filter names each option.
    await page.goto(`/projects/${projectId}/videos`);
    await expect(page.locator('select[name="category"] option[value="s7"]')).toHaveText(`s7 · ${s7.label}`);

    // The new-queue form's category picker names each category.
    await page.goto(`/projects/${projectId}/queues/new?runId=${run.id}`);
    await page.getByRole("radio", { name: /the judge's scores/ }).check();
    await expect(page.getByTestId("queue-categories").getByTestId("code-with-name")).toHaveCount(20);
    await expect(page.getByTestId("queue-categories").locator('[data-code="s7"]')).toHaveText(`s7 · ${s7.label}`);

    // The review screen: the target's name beside its control, its definition below, and the legend.
    const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
    const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: { name: "s7 only", runId: run.id, scope: "scores", categories: ["s7"], reviewersPerItem: 1, blind: false },
    });
    expect(created.status()).toBe(201);
    const { id: queueId } = (await created.json()) as { id: string };
    const next = await request.post(`/api/v1/queues/${queueId}/next`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: {},
    });
    const { itemId } = (await next.json()) as { itemId: string };
    await page.goto(`/projects/${projectId}/queues/${queueId}/items/${itemId}`);
    const target = page.getByTestId("target");
    await expect(target).toHaveCount(1);
    // innerText: the tooltip's text is in the DOM but not shown until hover or focus.
    await expect(target.getByTestId("target-label")).toContainText(`s7 · ${s7.label} · key frame 1`, {
      useInnerText: true,
    });
    await expect(target.getByTestId("target-definition")).toHaveText(s7.definition);
    await expect(target.getByTestId("judge-value")).toHaveText("7");
    await expect(page.getByTestId("judge-summary")).toContainText("I 0 · S 7 · D 0 · overall 72 · hallucination yes");
    await expect(page.getByTestId("target-legend").getByTestId("legend-entry")).toHaveCount(20);
  } finally {
    await prisma.$disconnect();
  }
});
