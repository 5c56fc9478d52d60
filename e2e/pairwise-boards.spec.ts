import { expect, test, type Page } from "@playwright/test";
import { cli, signIn } from "./helpers";

// The pairwise boards (issue 66 §4, §5, §7): a pair set of four generators with a person's and a judge run's verdicts
// and a honeypot pair (seeded in the database; review and judging have their own specs). The owner opens the set from
// the Pairs link, its leaderboard (people and the judge side by side, the unrated generator, the honeypot left out),
// its agreement and its raters; a viewer sees the same ratings but no raters page.
test("the owner reads the pairwise leaderboard, agreement and raters; a viewer the same numbers and no raters page", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { prisma } = await import("../lib/db/prisma");
  const { addVerdict, expectedVerdict, seedBoardProject } = await import("../testkit/pairwise/board-fixtures");
  const stamp = Date.now();
  const people = await Promise.all(
    (["owner", "reviewer", "viewer"] as const).map(async (role) => {
      const email = `pairwise-${role}-${stamp}@example.test`;
      const password = `${role}-password-1`;
      await cli("create-user", "--email", email, "--password", password, "--name", `Pairwise ${role}`);
      const user = await prisma.user.findUniqueOrThrow({ where: { email } });
      return { email, password, actor: { userId: user.id, email, name: user.name, isAdmin: false } };
    }),
  );
  const [owner, reviewer, viewer] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
  const seed = await seedBoardProject(
    prisma,
    { owner: owner.actor, reviewers: [reviewer.actor], viewer: viewer.actor },
    "Pairwise boards e2e",
  );
  for (const [i, pair] of seed.pairs.filter((p) => p.generatorB !== "Gen D").entries()) {
    const verdict = expectedVerdict(pair.generatorA, pair.generatorB);
    const side = i % 2 ? "left" : "right";
    await addVerdict(
      prisma,
      seed,
      pair.id,
      { kind: "reviewer", userId: reviewer.actor.userId, aShownOn: side },
      verdict,
    );
    await addVerdict(prisma, seed, pair.id, { kind: "judge" }, i === 0 ? "tie_good" : verdict);
  }
  await addVerdict(prisma, seed, seed.honeypotPairId, { kind: "reviewer", userId: reviewer.actor.userId }, "A");

  const ratingsOn = async (page: Page) => {
    await page.goto(`/projects/${seed.projectId}/pairs/${seed.pairSetId}/leaderboard`);
    await expect(page.getByTestId("pairwise-ranking")).toHaveCount(2);
    return page.getByTestId("pairwise-rating").allInnerTexts();
  };

  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, owner.email, owner.password);
  await ownerPage.goto(`/projects/${seed.projectId}`);
  await ownerPage.getByRole("link", { name: "Pairs", exact: true }).click();
  const row = ownerPage.getByTestId("pair-set-row");
  await expect(row).toContainText("Four generators");
  await expect(row).toContainText("25");
  await row.getByRole("link", { name: "Four generators" }).click();
  await expect(ownerPage.getByTestId("pair-set-progress")).toContainText("19 verdicts by people");
  await expect(ownerPage.getByTestId("review-link")).toHaveAttribute(
    "href",
    `/projects/${seed.projectId}/pairs/${seed.pairSetId}/review`,
  );
  await ownerPage.getByTestId("pair-set-link-leaderboard").click();
  const boards = ownerPage.getByTestId("pairwise-board");
  await expect(boards).toHaveCount(2);
  await expect(boards.nth(0)).toContainText("People");
  await expect(boards.nth(1)).toContainText("stub-vision @ stub");
  await expect(ownerPage.getByTestId("pairwise-unrated-row").first()).toContainText("Gen D");
  await expect(ownerPage.getByTestId("honeypots-left-out")).toBeVisible();
  await expect(ownerPage.getByTestId("kendall-tau")).toContainText("τ =");
  await expect(ownerPage.getByTestId("heat-winRate")).toBeVisible();
  const ownerRatings = await ratingsOn(ownerPage);
  expect(ownerRatings).toHaveLength(6);
  const csv = await ownerPage.request.get(
    `/api/v1/pair-sets/${seed.pairSetId}/leaderboard?aspect=overall&raters=people&format=csv`,
  );
  expect(await csv.text()).toContain("Gen A");

  // The judge run's own page says where its results are, and shows no video rows or exports of its own.
  await ownerPage.goto(`/projects/${seed.projectId}/runs/${seed.runId}`);
  const note = ownerPage.getByTestId("pairwise-run-note");
  await expect(note).toContainText("judges the pairs of Four generators");
  await expect(ownerPage.getByTestId("run-exports")).toHaveCount(0);
  await expect(ownerPage.getByTestId("run-videos")).toHaveCount(0);
  // Its cost is shown, without the manifest of a run over videos (a pairwise run starts from its set).
  await expect(ownerPage.getByTestId("run-cost")).toBeVisible();
  await expect(ownerPage.getByTestId("run-manifest-link")).toHaveCount(0);
  await note.getByRole("link", { name: "Four generators" }).click();
  await expect(ownerPage.getByTestId("pair-set-progress")).toContainText("19 verdicts by people");

  await ownerPage.getByTestId("pair-set-link-agreement").click();
  await expect(
    ownerPage.getByTestId("pairwise-agreement-overall").getByTestId("pairwise-agreement-row"),
  ).not.toHaveCount(0);
  await expect(ownerPage.getByTestId("human-noise")).toBeVisible();
  await ownerPage.getByTestId("pair-set-link-raters").click();
  await expect(ownerPage.getByTestId("pairwise-rater-row")).toHaveCount(2);
  await expect(ownerPage.getByTestId("pairwise-raters")).toContainText("Pairwise reviewer");

  const viewerPage = await (await browser.newContext()).newPage();
  await signIn(viewerPage, viewer.email, viewer.password);
  expect(await ratingsOn(viewerPage)).toEqual(ownerRatings);
  await expect(viewerPage.getByTestId("pair-set-link-raters")).toHaveCount(0);
  // The judge run's page reads the same for a viewer and a reviewer: where its results are, no video rows.
  for (const person of [viewer, reviewer]) {
    const runPage = await (await browser.newContext()).newPage();
    await signIn(runPage, person.email, person.password);
    await runPage.goto(`/projects/${seed.projectId}/runs/${seed.runId}`);
    await expect(runPage.getByTestId("pairwise-run-note")).toContainText("judges the pairs of Four generators");
    await expect(runPage.getByTestId("run-cost")).toBeVisible();
    await expect(runPage.getByTestId("run-videos")).toHaveCount(0);
    await runPage.screenshot({
      path: test.info().outputPath(`pairwise-run-page-${person === viewer ? "viewer" : "reviewer"}.png`),
    });
  }
  await viewerPage.goto(`/projects/${seed.projectId}/pairs/${seed.pairSetId}/raters`);
  await expect(viewerPage.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(viewerPage.getByTestId("pairwise-raters")).toHaveCount(0);
});
