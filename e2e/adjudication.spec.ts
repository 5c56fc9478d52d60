import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Adjudication to gold: two reviewers give opposite verdicts on a video (a tie), the owner finds it in
// the adjudication queue with both reviewers' values and the judge's, sets gold with the keyboard, and
// the agreement report then measures the judge against gold.
test("two reviewers disagree, the owner adjudicates, agreement against gold", async ({ page, browser }) => {
  // Three sign-ins and a dozen page loads: on a loaded machine this takes about a minute.
  test.setTimeout(120_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  const owner = await ownerWithProject("adjudicate");
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
    videoCount: 1,
    keyFrames: 1,
    name: "Adjudication e2e",
  });
  await seedFinishedRun(prisma, actor, projectId, videoIds, {
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 8 }],
    outcome: () => ({ verdict: true, overall: 35 }),
  });
  const reviewers = [`adj-ann-${Date.now()}@example.test`, `adj-bob-${Date.now()}@example.test`];
  for (const email of reviewers) {
    await cli("create-user", "--email", email, "--password", "reviewer-password-1");
    const reviewer = await prisma.user.findUniqueOrThrow({ where: { email } });
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.id, role: "reviewer" } });
  }

  // Ann says yes, Bob says no: a tie on the verdict.
  for (const [email, value] of [
    [reviewers[0]!, "1"],
    [reviewers[1]!, "0"],
  ] as const) {
    const context = await browser.newContext();
    const reviewerPage = await context.newPage();
    await signIn(reviewerPage, email, "reviewer-password-1");
    await reviewerPage.goto(`/projects/${projectId}/videos/${videoIds[0]}`);
    const verdict = reviewerPage.getByTestId("outcome-verdict");
    await verdict.getByRole("button", { name: "Give your verdict" }).click();
    await verdict.getByLabel("Your value").selectOption(value);
    await verdict.getByRole("button", { name: "Save" }).click();
    await expect(verdict.getByTestId("value-you")).toHaveText(value === "1" ? "You: yes" : "You: no");
    // Reviewers may not adjudicate.
    expect((await reviewerPage.goto(`/projects/${projectId}/adjudication`))!.status()).toBe(403);
    await context.close();
  }

  await signIn(page, owner.email, owner.password);
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("link", { name: "Adjudication" }).click();
  await expect(page.getByTestId("adjudication-summary")).toHaveText("1 disputed target, 0 with gold.");
  const item = page.getByTestId("adjudication-item");
  await expect(item.getByTestId("disagreement-kind")).toHaveText("tie");
  await expect(item.getByTestId("adjudication-values")).toContainText(`${reviewers[0]}yes`);
  await expect(item.getByTestId("adjudication-values")).toContainText(`${reviewers[1]}no`);
  await expect(item.getByTestId("judge-value")).toHaveText("yes");
  await expect(item.getByRole("img").first()).toBeVisible();
  // What the gold is about, on the card: the video's prompt and a player of the video.
  const video = await prisma.video.findUniqueOrThrow({ where: { id: videoIds[0]! } });
  await expect(item.getByTestId("adjudication-prompt")).toContainText(video.prompt!);
  const player = item.getByTestId("adjudication-player");
  await expect(player).toHaveAttribute("src", `/api/v1/videos/${videoIds[0]}/file`);

  // Keyboard: the value key picks "no", the note is typed, Enter saves.
  await page.locator("body").press("0");
  await expect(item.getByTestId("gold-value")).toHaveValue("0");
  await item.getByTestId("gold-note").fill("no artefact in any frame");
  await item.getByTestId("gold-note").press("Enter");
  await expect(item.getByTestId("current-gold")).toContainText(
    `Gold: no by ${owner.email} (version 1) — no artefact in any frame`,
  );
  await page.reload();
  await expect(page.getByTestId("adjudication-summary")).toHaveText("1 disputed target, 1 with gold.");

  // The agreement against gold: the judge said yes, gold says no.
  await page.goto(`/projects/${projectId}/agreement?view=details`);
  await page.getByTestId("truth-select").selectOption("gold");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/truth=gold/);
  const gold = page.getByTestId("gold-annotator");
  await expect(gold).toContainText("gold (adjudicated)");
  // n = 1 (the verdict), accuracy 0.
  await expect(gold.locator("td").nth(1)).toHaveText("1");
  await expect(gold.locator("td").nth(2)).toContainText("0.00");
  await prisma.$disconnect();
});
