import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// The Q&A construction page: a bad step-annotation file shows its errors by line and imports nothing; the
// demo's annotations (HiREST, YouCook2 and a long Ego4D Goal-Step record) are checked by a dry run that shows
// each video's clips and what the trimming left out, then imported as a clip set. A candidate set (inserted as
// the generation run leaves one) shows its funnel, chart, letter histogram and list; a viewer sees it all
// without the import.
test("imports step annotations with a dry run, lists the clip set and shows a candidate set's funnel and list", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { insertCandidateSet } = await import("../testkit/tasks/construction/candidate-fixtures");
  const { demoStepAnnotations } = await import("../lib/tasks/construction/demo-seed");
  const owner = await ownerWithProject("construction");
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
    videoCount: 3,
    keyFrames: 1,
    name: "Construction e2e",
  });
  const names = [0, 1, 2].map((v) => `A ball rolls down a ramp number ${v}-0.mp4`) as [string, string, string];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-construction-"));
  const good = path.join(dir, "steps.jsonl");
  fs.writeFileSync(good, demoStepAnnotations(names));
  const bad = path.join(dir, "bad.jsonl");
  fs.writeFileSync(bad, `${JSON.stringify({ video: names[0], steps: [{ start: 5, end: 1, text: "backwards" }] })}\n`);

  try {
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}`);
    // A project that has not used Q&A construction yet keeps its tab under "More tasks".
    await page.getByTestId("project-nav-more-button").click();
    await page.getByTestId("project-nav-construction").click();
    await expect(page.getByRole("heading", { name: "Q&A construction" })).toBeVisible();
    await expect(page.getByText("No step annotations yet")).toBeVisible();

    await page.getByTestId("step-annotation-file").setInputFiles(bad);
    await page.getByTestId("step-annotation-check").click();
    await expect(page.getByTestId("step-annotation-errors")).toContainText(
      "line 1: steps[1]: ends at 1s, not after its start 5s",
    );
    await expect(page.getByTestId("step-annotation-submit")).toBeDisabled();

    await page.getByTestId("step-annotation-file").setInputFiles(good);
    await page.getByTestId("step-annotation-name").fill("Demo steps");
    await page.getByTestId("step-annotation-check").click();
    const summary = page.getByTestId("step-annotation-summary");
    await expect(summary).toHaveAttribute("data-dry-run", "true");
    await expect(summary).toContainText("Would create Demo steps: 4 clips from 3 videos");
    const plans = page.getByTestId("step-annotation-plan");
    await expect(plans).toHaveCount(3);
    await expect(plans.nth(2).getByTestId("step-annotation-clips")).toContainText("#1: 280s–560s, steps 8–14");
    await expect(plans.nth(2).getByTestId("step-annotation-discarded")).toContainText("steps 15–16:");
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);

    await page.getByTestId("step-annotation-submit").click();
    await expect(summary).toHaveAttribute("data-dry-run", "false");
    await expect(page.getByTestId("clip-set")).toHaveCount(1);
    await expect(page.getByTestId("clip-set")).toContainText("Demo steps");
    await expect(page.getByTestId("clip-set-datasets")).toHaveText("ego4d-goalstep 2 · hirest 1 · youcook2 1");

    const { setId } = await insertCandidateSet(prisma, actor, projectId, videoIds, [
      {
        externalId: "c0",
        video: 0,
        dataset: "hirest",
        question: "What is done after the face is cleaned?",
        answer: "Tissue is applied.",
      },
      {
        externalId: "c1",
        video: 1,
        dataset: "youcook2",
        question: "What goes into the sauce last?",
        answer: "The pasta.",
      },
      {
        externalId: "c2",
        video: 2,
        dataset: "ego4d-goalstep",
        question: "What is chopped after the peppers?",
        answer: "An onion.",
      },
    ]);
    await page.reload();
    await expect(page.getByTestId("candidate-set")).toHaveCount(1);
    await expect(
      page.locator('[data-testid="funnel-stage"][data-stage="generated"] [data-testid="funnel-kept"]'),
    ).toHaveText("3");
    await expect(page.locator('[data-testid="funnel-stage"][data-stage="blind"]')).toContainText("Blind questions");
    await expect(page.getByTestId("funnel-chart").locator("svg").first()).toBeVisible();
    await expect(page.getByTestId("letter-histogram")).toBeVisible();
    await expect(page.getByTestId("candidate")).toHaveCount(3);
    await expect(page.getByTestId("candidate").first()).toContainText("What is done after the face is cleaned?");
    await expect(page.getByTestId("candidate-fate").first()).toHaveText("waiting at Blind questions");
    await expect(page.getByTestId("export-mc")).toHaveAttribute(
      "href",
      `/api/v1/candidate-sets/${setId}/export?format=mc`,
    );

    // The list's filters go through the query string.
    await page.getByTestId("candidate-filters").locator('select[name="dataset"]').selectOption("youcook2");
    await page.getByTestId("candidate-filters").getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/dataset=youcook2/);
    await expect(page.getByTestId("candidate")).toHaveCount(1);
    await expect(page.getByTestId("candidate")).toContainText("What goes into the sauce last?");

    // A viewer sees the sets and the candidates, not the import or the run buttons.
    const viewerEmail = `construction-viewer-${Date.now()}@example.test`;
    await cli("create-user", "--email", viewerEmail, "--password", "viewer-password-1");
    await cli("add-member", "--project", projectId, "--email", viewerEmail, "--role", "viewer");
    const context = await browser.newContext();
    const viewer = await context.newPage();
    await signIn(viewer, viewerEmail, "viewer-password-1");
    await viewer.goto(`/projects/${projectId}/construction`);
    await expect(viewer.getByText("Owners import step annotations; the sets are listed below.")).toBeVisible();
    await expect(viewer.getByTestId("step-annotation-file")).toHaveCount(0);
    await expect(viewer.getByTestId("generate-start")).toHaveCount(0);
    await expect(viewer.getByTestId("clip-set")).toHaveCount(1);
    await expect(viewer.getByTestId("candidate")).toHaveCount(3);
    await context.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await prisma.$disconnect();
  }
});
