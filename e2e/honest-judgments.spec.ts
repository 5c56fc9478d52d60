import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Honest judgments: the editor starts empty (never on the judge's value), accepting the judge's value
// is an explicit action marked in the history and left out of the agreement by default ("independent
// only"), and a withdrawn judgment counts nowhere but stays in the history.
test("accept marking, the independent-only agreement and withdrawing a judgment", async ({ page }) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  const owner = await ownerWithProject("honest");
  const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
    videoCount: 2,
    keyFrames: 1,
    name: "Honest e2e",
  });
  await seedFinishedRun(prisma, actor, projectId, videoIds, {
    scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [8, 2][v]! }],
    outcome: (v) => ({ verdict: [true, false][v]!, overall: [35, 85][v]! }),
  });

  await signIn(page, owner.email, owner.password);
  // Video 0: the judge says yes; the editor starts empty, and Accept saves the judge's value, marked.
  // The page's first read of the judgments is answered before the save and held back until the save is answered,
  // as on a busy machine: the saved value must still show (the refetch once reused that read and kept its answer).
  let firstReadAnswered!: () => void;
  const firstRead = new Promise<void>((resolve) => (firstReadAnswered = resolve));
  const saveAnswered = page.waitForResponse(
    (r) => r.request().method() === "PUT" && r.url().includes("/review/verdict"),
  );
  await page.route(
    /\/api\/v1\/videos\/[^/]+\/reviews/,
    async (route) => {
      const response = await route.fetch();
      firstReadAnswered();
      // Until the page has handled the save's answer (a second after it arrives) and asked for the judgments again.
      await saveAnswered;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  await page.goto(`/projects/${projectId}/videos/${videoIds[0]}`);
  let verdict = page.getByTestId("outcome-verdict");
  await expect(verdict.getByTestId("value-judge")).toHaveText("Judge: yes");
  await verdict.getByRole("button", { name: "Give your verdict" }).click();
  await expect(verdict.getByLabel("Your value")).toHaveValue("");
  await expect(verdict.getByRole("button", { name: "Save" })).toBeDisabled();
  await firstRead;
  await verdict.getByTestId("accept-judge").click();
  await expect(verdict.getByTestId("value-you")).toHaveText("You: yes");
  await expect(verdict.getByTestId("history-entry").first()).toContainText("set yes (accepted judge)");

  // Video 1: the judge says no; the reviewer's own yes.
  await page.goto(`/projects/${projectId}/videos/${videoIds[1]}`);
  verdict = page.getByTestId("outcome-verdict");
  await expect(verdict.getByTestId("value-judge")).toHaveText("Judge: no");
  await verdict.getByRole("button", { name: "Give your verdict" }).click();
  await expect(verdict.getByLabel("Your value")).toHaveValue("");
  await verdict.getByLabel("Your value").selectOption("1");
  await verdict.getByRole("button", { name: "Save" }).click();
  await expect(verdict.getByTestId("value-you")).toHaveText("You: yes");

  // The agreement: independent only by default (the accepted verdict left out), all on request.
  await page.goto(`/projects/${projectId}/agreement`);
  await expect(page.getByTestId("summary-independent")).toContainText("independent only");
  await expect(page.getByTestId("summary-reviewed")).toHaveText("1");
  await page.getByTestId("independent-toggle").selectOption("all");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/independent=all/);
  await expect(page.getByTestId("summary-independent")).toContainText("all (incl. accepted)");
  await expect(page.getByTestId("summary-reviewed")).toHaveText("2");

  // Withdraw video 1's verdict: gone from the values and the agreement, kept in the history.
  await page.goto(`/projects/${projectId}/videos/${videoIds[1]}`);
  verdict = page.getByTestId("outcome-verdict");
  await verdict.getByRole("button", { name: "Change your verdict" }).click();
  await verdict.getByTestId("withdraw-judgment").click();
  await expect(verdict.getByRole("button", { name: "Give your verdict" })).toBeVisible();
  await expect(verdict.getByTestId("value-you")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("outcome-verdict").getByTestId("value-you")).toHaveCount(0);
  const stored = await prisma.humanJudgment.findFirstOrThrow({
    where: { videoId: videoIds[1]!, target: "verdict" },
    include: { history: { orderBy: { version: "asc" } } },
  });
  expect(stored.withdrawn).toBe(true);
  expect(stored.history.map((h) => h.after)).toEqual([
    { value: 1, note: null, reason: null, acceptedJudge: false },
    { withdrawn: true },
  ]);
  await page.goto(`/projects/${projectId}/agreement?independent=all`);
  await expect(page.getByTestId("summary-reviewed")).toHaveText("1");
  await page.goto(`/projects/${projectId}/agreement`);
  await expect(page.getByText("No human judgments yet")).toBeVisible();
  await prisma.$disconnect();
});
