import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Reviewing VBench-2.0 answers in a queue: each target is the question the judge was asked, in its words, with yes /
// no buttons and keys and the frames that question was asked with; the early-submit message names the questions;
// the Judge line lists the item's own questions. The owner makes the queue in the form, which starts on the
// questions (a VBench-2.0 run has no verdict). One item is answered by keyboard, the other by mouse.
//
// Seeded through lib/ as a finished vbench2 run (no judge runs here): a Dynamic_Attribute video whose two questions
// were asked with all 64 frames, and a Dynamic_Spatial_Relationship video whose question 1 was asked with the first
// 32 frames and question 2 with the last frame, as VBench-2.0 asks them.
const RIVER = ["Initially, is the color of the river mostly blue?", "Finally, is the color of the river mostly green?"];
const CAT = ["Is the cat beside the box in the first half of the video?", "Is the cat on top of the box at the end?"];

async function seed() {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { vbench2Project } = await import("../testkit/tasks/vbench2/vbench2-fixtures");
  const { createRunVideo } = await import("../testkit/testing/run-video-fixture");
  const owner = await ownerWithProject("vbench2-review-owner");
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const { projectId, videoIds } = await vbench2Project(
    prisma,
    actor,
    [
      {
        model: "GenA",
        dimension: "Dynamic_Attribute",
        prompt: "A river turns from blue to green",
        auxiliaryInfo: RIVER,
      },
      {
        model: "GenA",
        dimension: "Dynamic_Spatial_Relationship",
        prompt: "A cat jumps onto a box",
        auxiliaryInfo: CAT,
      },
    ],
    owner.projectId,
  );
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "VLM", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: user.id },
  });
  const run = await prisma.judgeRun.create({
    data: { projectId, pipeline: "vbench2", endpointId: endpoint.id, createdById: user.id, status: "done" },
  });
  const dimensions = [
    {
      videoId: videoIds[0]!,
      dimension: "Dynamic_Attribute",
      slug: "dynamic_attribute",
      questions: RIVER,
      judge: [1, 0],
      frames: (all: number[]) => [all, all],
    },
    {
      videoId: videoIds[1]!,
      dimension: "Dynamic_Spatial_Relationship",
      slug: "dynamic_spatial_relationship",
      questions: CAT,
      judge: [1, 1],
      frames: (all: number[]) => [all.slice(0, 32), all.slice(-1)],
    },
  ];
  for (const d of dimensions) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({
      where: { videoId: d.videoId, mode: "uniform" },
      include: { frames: { orderBy: { index: "asc" } } },
    });
    const video = await prisma.video.findUniqueOrThrow({ where: { id: d.videoId } });
    const times = frameSet.frames.map((f) => f.index / video.fps!);
    const asked = d.frames(times);
    const questions = d.questions.map((question, k) => ({
      question,
      stepId: `${d.slug}_q${k + 1}`,
      answer: d.judge[k] ? "Yes." : "No.",
      yes: d.judge[k] === 1,
      notAsked: null,
      frames: asked[k],
    }));
    const value = d.judge.every((v) => v === 1) ? 1 : 0;
    for (const [k, q] of questions.entries()) {
      const step = await prisma.stepResult.create({
        data: {
          runId: run.id,
          videoId: d.videoId,
          stepId: q.stepId,
          scopeIndex: 0,
          status: "done",
          templateId: "t",
          output: { text: q.answer },
        },
      });
      await prisma.score.create({
        data: {
          runId: run.id,
          videoId: d.videoId,
          stepResultId: step.id,
          stepId: q.stepId,
          scopeIndex: 0,
          category: `${d.slug}:q${k + 1}`,
          value: d.judge[k]!,
        },
      });
    }
    await createRunVideo(prisma, {
      runId: run.id,
      videoId: d.videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: {
        [d.slug]: value,
        dimensions: {
          [d.dimension]: { value, excludedReason: null, questions, judgeExclusion: null, deviation: null },
        },
        complete: true,
      },
      metrics: { [d.slug]: value },
    });
  }
  const reviewer = { email: `vbench2-review-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
  await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
  await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
  return {
    prisma,
    owner,
    projectId,
    runId: run.id,
    reviewer,
    reviewerId: async () => (await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } })).id,
  };
}

test("a VBench-2.0 item reviewed by keyboard and one by mouse: each question's words, yes / no and its frames on screen", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { prisma, owner, projectId, runId, reviewer, reviewerId } = await seed();

  // The owner's form starts on the questions and offers no verdict for a VBench-2.0 run.
  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${projectId}/queues/new?runId=${runId}`);
  await page.getByLabel("Name").fill("Rivers and cats");
  await expect(page.getByTestId("queue-scope-verdict")).toHaveCount(0);
  await expect(
    page.getByRole("radio", { name: /the judge's answers \(yes \/ no\) to each of its questions/ }),
  ).toBeChecked();
  await expect(page.getByRole("radio", { name: /overlap first/ })).toBeChecked();
  await page.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByTestId("queue-name")).toHaveText("Rivers and cats");
  await expect(page.getByTestId("queue-hand-out")).toContainText("overlap first");
  const queueUrl = page.url();

  await page.context().clearCookies();
  await signIn(page, reviewer.email, reviewer.password);
  await page.goto(queueUrl);
  await page.getByTestId("start-reviewing").click();
  const screen = page.getByTestId("review-screen");
  await expect(screen).toBeVisible();
  const targets = page.getByTestId("target");

  // Item 1 (the river), by keyboard: the questions, yes / no buttons named by them, the focused question's 64 frames.
  await expect(page.getByTestId("question-text")).toHaveText(RIVER);
  await expect(page.getByText("Dynamic Attribute question", { exact: true })).toHaveCount(0);
  await expect(targets.nth(0).getByTestId("score-button")).toHaveText(["yes", "no"]);
  await expect(page.getByRole("button", { name: `Dynamic Attribute question 1: ${RIVER[0]}: yes` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Dynamic Attribute question 2: ${RIVER[1]}: no` })).toBeVisible();
  await expect(targets.nth(0).getByTestId("question-frames")).toContainText("Asked with 64 frames");
  await expect(targets.nth(0).getByTestId("question-frames").getByRole("img")).toHaveCount(64);
  await expect(page.locator('[data-testid="strip-frame"][data-highlighted="true"]')).toHaveCount(64);
  // Enter too early: the message names the questions.
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("status-message")).toContainText(RIVER[0]!);
  await expect(page.getByTestId("status-message")).toContainText(RIVER[1]!);
  await page.keyboard.press("y");
  await page.keyboard.press("n");
  await expect(page.getByTestId("my-value")).toHaveText(["yes", "no"]);
  await page.keyboard.press("Enter");
  // Blind: once submitted, the judge's answers show, and the Judge line lists this item's two questions only.
  await expect(page.getByTestId("reveal-summary")).toContainText("you agree on 2 of 2");
  await expect(page.getByTestId("judge-summary")).toHaveText(
    "Judge: Dynamic Attribute question 1 yes · Dynamic Attribute question 2 no",
  );
  await page.keyboard.press("Enter");

  // Item 2 (the cat), by mouse: question 1 was asked with the first 32 frames, question 2 with the last one.
  await expect(page.getByTestId("question-text")).toHaveText(CAT);
  await expect(targets.nth(0).getByTestId("question-frames")).toContainText("Asked with 32 frames");
  await page.getByRole("button", { name: "Submit (Enter)" }).click();
  await expect(page.getByTestId("status-message")).toContainText(CAT[0]!);
  await page.getByRole("button", { name: `Dynamic Spatial Relationship question 1: ${CAT[0]}: yes` }).click();
  await expect(targets.nth(1)).toHaveAttribute("data-focused", "true");
  await expect(targets.nth(1).getByTestId("question-frames")).toContainText("Asked with 1 frame");
  await expect(targets.nth(1).getByTestId("question-frames").getByRole("img")).toHaveCount(1);
  await page.getByRole("button", { name: `Dynamic Spatial Relationship question 2: ${CAT[1]}: no` }).click();
  await page.getByRole("button", { name: "Submit (Enter)" }).click();
  await expect(page.getByTestId("status-message")).toContainText("Submitted. Nothing is left for you in this queue.");
  await expect(page.getByTestId("agreement")).toHaveText(["agree", "differ"]);

  // What was stored: one judgment per question, as answered.
  const judgments = await prisma.humanJudgment.findMany({
    where: { reviewerId: await reviewerId(), withdrawn: false },
    select: { target: true, value: true },
    orderBy: { target: "asc" },
  });
  expect(judgments).toEqual([
    { target: "dynamic_attribute:q1", value: 1 },
    { target: "dynamic_attribute:q2", value: 0 },
    { target: "dynamic_spatial_relationship:q1", value: 1 },
    { target: "dynamic_spatial_relationship:q2", value: 0 },
  ]);
});
