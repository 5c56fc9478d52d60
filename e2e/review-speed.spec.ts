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

    await expect(page.getByTestId("status-message")).toContainText("Nothing is left for you in this queue", { timeout: 60_000 });
    const { saved, lost } = await savedAgainstTyped(seeded, typed);
    expect(saved).toEqual(typed);
    expect(lost).toBe(0);
  } finally {
    await seeded.prisma.$disconnect();
  }
});
