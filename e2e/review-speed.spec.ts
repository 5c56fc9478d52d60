import { expect, test } from "@playwright/test";
import { keysOf, savedAgainstTyped, seedReviewSession, typedItems } from "./review-session";

// Twenty items reviewed with the keyboard alone, every key sent straight after the one before: the keys
// typed while an item is being submitted and the next one loading must land on the next item.
test("a keyboard-only session of 20 items typed without pauses loses no key", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const seeded = await seedReviewSession(page, request, baseURL!, 20, "speed");
  try {
    await page.goto(`/projects/${seeded.projectId}/queues/${seeded.queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    await expect(page.getByTestId("review-screen")).toBeVisible();

    const typed = typedItems(20);
    for (const key of keysOf(typed)) await page.keyboard.press(key);

    await expect(page.getByTestId("status-message")).toContainText("Nothing is left for you in this queue", {
      timeout: 60_000,
    });
    const { saved, lost } = await savedAgainstTyped(seeded, typed);
    expect(saved).toEqual(typed);
    expect(lost).toBe(0);
  } finally {
    await seeded.prisma.$disconnect();
  }
});

// Enter shows the next item at once (it was claimed ahead and loaded) and submits in the background: a submission
// that fails says so and keeps the typed values, which go through once sent again; leaving releases the claim ahead.
test("a submission that fails in the background shows it and loses nothing; leaving releases the claim ahead", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const seeded = await seedReviewSession(page, request, baseURL!, 3, "background");
  const { prisma, queueId, reviewerActor } = seeded;
  try {
    await page.goto(`/projects/${seeded.projectId}/queues/${queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    // The claim ahead answers with the next item's payload: once it is in, Enter has nothing to wait for.
    const claimedAhead = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/ahead") && r.ok());
    await page.keyboard.press("s");
    const screen = page.getByTestId("review-screen");
    await expect(screen).toBeVisible();
    const first = (await screen.getAttribute("data-item-id"))!;
    const ahead = (await (await claimedAhead).json()) as { itemId: string; item: { item: { id: string } } };
    const second = ahead.itemId;
    expect(second).not.toBe(first);
    expect(ahead.item.item.id).toBe(second);

    await page.route("**/submit", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "The server is restarting." } }),
      }),
    );
    for (const key of ["3", "j", "4", "Enter"]) await page.keyboard.press(key);
    // The next item is on screen without waiting for the submission…
    await expect(screen).toHaveAttribute("data-item-id", second);
    // …whose failure shows, with the way back.
    const failed = page.getByTestId("submit-failed");
    await expect(failed).toContainText("Your item 1 was not submitted: The server is restarting.");
    await expect(failed).toContainText("Your values are kept");
    expect(await prisma.humanJudgment.count({ where: { reviewerId: reviewerActor.userId } })).toBe(0);

    await page.unroute("**/submit");
    await failed.getByRole("button", { name: "Go back to it" }).click();
    await expect(screen).toHaveAttribute("data-item-id", first);
    await expect(page.getByTestId("my-value")).toHaveText(["3", "4"]);
    await page.keyboard.press("Enter");
    await expect(screen).toHaveAttribute("data-item-id", second);
    await expect(failed).toHaveCount(0);
    await expect
      .poll(async () =>
        (
          await prisma.humanJudgment.findMany({
            where: { reviewerId: reviewerActor.userId },
            orderBy: { value: "asc" },
          })
        ).map((j) => j.value),
      )
      .toEqual([3, 4]);
    await expect(page.getByTestId("my-count")).toHaveText("you: 1 submitted");

    // On the second item, the third is claimed ahead; leaving the screen gives it back.
    await expect
      .poll(() =>
        prisma.reviewQueueAssignment.count({ where: { queueId, reviewerId: reviewerActor.userId, status: "claimed" } }),
      )
      .toBe(2);
    await page.goto(`/projects/${seeded.projectId}/queues/${queueId}`);
    await expect
      .poll(() =>
        prisma.reviewQueueAssignment.count({ where: { queueId, reviewerId: reviewerActor.userId, status: "claimed" } }),
      )
      .toBe(1);
    expect(
      (
        await prisma.reviewQueueAssignment.findFirstOrThrow({
          where: { queueId, reviewerId: reviewerActor.userId, status: "claimed" },
        })
      ).itemId,
    ).toBe(second);
  } finally {
    await prisma.$disconnect();
  }
});
