import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Human curation of constructed questions in the browser: a candidate set inserted by the test helper (the
// generation pipeline is not needed for curation), a queue made with the owner's form over all candidates, then
// keyboard-only curation: `a` on a question decided in another tab meanwhile shows the 409 and Enter re-applies it,
// `a` `a` accepts the first two (the second key typed while the first decision saves),
// `e` edits the third (question rewritten, Ctrl+Enter saves), `r` rejects the fourth with a reason (Enter). The
// queue page then counts 4 accepted and 1 rejected, Make QA set imports the 4 as a question set with one click, and
// the export carries the edited question.

const queueRowOf = (page: import("@playwright/test").Page) => page.getByTestId("curation-queue");

test("curates five candidates with the keyboard (a 409 re-applied, accept two, edit one, reject one) and sees the queue's counts and the export", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { insertCandidateSet } = await import("../testkit/tasks/construction/candidate-fixtures");
  const owner = await ownerWithProject("curation");
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
    videoCount: 2,
    keyFrames: 3,
    name: "curation",
  });
  const { setId, itemIds } = await insertCandidateSet(prisma, actor, projectId, videoIds, [
    { externalId: "c0", video: 0, question: "How many times does the ball roll down?", answer: "Once." },
    {
      externalId: "c1",
      video: 0,
      question: "What happens after the ball is placed at the top?",
      answer: "It rolls down the ramp.",
    },
    { externalId: "c2", video: 0, question: "What is done last?", answer: "The ball is caught at the bottom." },
    { externalId: "c3", video: 1, question: "Where is the ball placed first?", answer: "At the top of the ramp." },
    { externalId: "c4", video: 1, question: "What does the ball do on the ramp?", answer: "It rolls down." },
  ]);
  const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
  try {
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/curation`);
    const form = page.getByTestId("new-curation-queue");
    await form.getByTestId("curation-name").fill("First pass");
    await form.getByTestId("curation-scope").selectOption("all");
    await form.getByRole("button", { name: "Create the queue" }).click();
    const queueRow = page.getByTestId("curation-queue");
    await expect(queueRow.getByTestId("curation-counts")).toContainText("pending 5");

    await queueRow.getByRole("link", { name: "First pass" }).click();
    const screen = page.getByTestId("curation-screen");
    await expect(screen).toHaveAttribute("data-item-id", itemIds.c0!);
    await expect(screen.getByTestId("curation-question")).toContainText("How many times does the ball roll down?");
    await expect(screen.getByTestId("curation-question")).toContainText("Once.");
    await expect(screen.getByTestId("curation-steps").locator("li")).toHaveCount(3);
    await expect(screen.getByTestId("curation-steps").locator("img")).toHaveCount(3);

    await page.keyboard.press("?");
    await expect(page.getByTestId("curation-help")).toBeVisible();
    // The one key-list overlay the review screen uses too: drawn over the page, in view.
    await expect(page.getByTestId("key-list-overlay").getByTestId("curation-help")).toBeInViewport({ ratio: 1 });
    await page.keyboard.press("?");
    await expect(page.getByTestId("curation-help")).toHaveCount(0);

    // The same curator decided c0 in another tab meanwhile: accepting here is a 409 that shows that decision; Enter
    // re-applies this one (the button has the focus).
    const elsewhere = await request.put(`/api/v1/items/${itemIds.c0}/curation`, {
      headers: { authorization: `Bearer ${ownerKey}` },
      data: { decision: "reject", reason: "decided in another tab" },
    });
    expect(elsewhere.status()).toBe(200);
    await page.keyboard.press("a");
    await expect(page.getByTestId("curation-conflict")).toContainText("version 1: reject (decided in another tab)");
    await expect(page.getByTestId("conflict-reapply")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(screen).toHaveAttribute("data-item-id", itemIds.c1!);
    await expect(page.getByTestId("curation-notice")).toContainText("Accepted (version 2)");

    // Accept two in a row: the second `a` is typed while the first is saving, and is kept for the next question.
    await page.keyboard.press("a");
    await page.keyboard.press("a");
    await expect(screen).toHaveAttribute("data-item-id", itemIds.c3!);
    await expect(page.getByTestId("curation-notice")).toContainText("Accepted (version 1)");
    expect(
      await prisma.curationDecision.count({
        where: { itemId: { in: [itemIds.c1!, itemIds.c2!] }, decision: "accept" },
      }),
    ).toBe(2);

    // Edit: the question field has the focus; select it all and type the new question.
    await page.keyboard.press("e");
    await expect(page.getByTestId("edit-question")).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Where is the ball put before it rolls?");
    await page.keyboard.press("Control+Enter");
    await expect(screen).toHaveAttribute("data-item-id", itemIds.c4!);
    await expect(page.getByTestId("curation-notice")).toContainText("Accepted with your edits");

    // Reject: a reason is required.
    await page.keyboard.press("r");
    await expect(page.getByTestId("reject-reason")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("curation-reject")).toBeVisible();
    await page.keyboard.type("The theme gives the answer away.");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("curation-done")).toBeVisible();

    await page.goto(`/projects/${projectId}/curation`);
    await expect(page.getByTestId("curation-counts")).toHaveText(/accepted 4 · rejected 1 · disputed 0 · pending 0/);
    await expect(page.getByTestId("curation-progress")).toContainText("5 of 5 questions complete");
    await expect(page.getByTestId("curation-agreement")).toHaveText(
      "Agreement needs at least two curators deciding the same questions.",
    );

    // One click: the accepted questions become a question set of this project.
    await queueRowOf(page).getByTestId("make-qa-set").getByRole("button", { name: "Make a QA set" }).click();
    await expect(page.getByTestId("make-qa-set-result")).toContainText("4 questions stored");
    expect(await prisma.item.count({ where: { projectId, kind: "question" } })).toBe(4);

    const exported = await request.get(`/api/v1/candidate-sets/${setId}/export?format=open`, {
      headers: { authorization: `Bearer ${ownerKey}` },
    });
    expect(exported.status()).toBe(200);
    const lines = (await exported.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; question: string; extra: { edited: boolean } });
    expect(lines.map((l) => [l.id, l.question, l.extra.edited])).toEqual([
      ["c0", "How many times does the ball roll down?", false],
      ["c1", "What happens after the ball is placed at the top?", false],
      ["c2", "What is done last?", false],
      ["c3", "Where is the ball put before it rolls?", true],
    ]);
    const reject = await prisma.curationDecision.findFirstOrThrow({ where: { itemId: itemIds.c4! } });
    expect([reject.decision, reject.reason]).toEqual(["reject", "The theme gives the answer away."]);
  } finally {
    await prisma.$disconnect();
  }
});
