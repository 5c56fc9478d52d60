import os from "node:os";
import { expect, test } from "@playwright/test";
import { keysOf, savedAgainstTyped, seedReviewSession, typedItems } from "../review-session";

// The review screen's transitions, timed in the browser: a reviewer types a scripted session of ITEMS items
// at KEYS_PER_SECOND (s1 digit, j, s2 digit, Enter per item). Prints the time from each Enter to the next
// item on screen (p50 / p95 / max), the keys that did not arrive (compared with what was saved), and the
// machine's load. Numbers only, no assertions on them.
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const KEYS_PER_SECOND = Number(process.env.BENCH_KEYS_PER_SECOND ?? 10);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

test("review transitions", async ({ page, request, baseURL }) => {
  const seeded = await seedReviewSession(page, request, baseURL!, ITEMS, "bench-review");
  try {
    // In the page: when each Enter was pressed, and when each new item's screen appeared.
    await page.addInitScript(() => {
      const marks = { enters: [] as number[], shown: [] as { id: string; t: number }[] };
      (window as unknown as { __reviewMarks: typeof marks }).__reviewMarks = marks;
      window.addEventListener("keydown", (event) => void (event.key === "Enter" && marks.enters.push(performance.now())), true);
      let last: string | null = null;
      new MutationObserver(() => {
        const id = document.querySelector('[data-testid="review-screen"]')?.getAttribute("data-item-id") ?? null;
        if (id && id !== last) {
          last = id;
          marks.shown.push({ id, t: performance.now() });
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-item-id"] });
    });
    await page.goto(`/projects/${seeded.projectId}/queues/${seeded.queueId}`);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    await expect(page.getByTestId("review-screen")).toBeVisible();

    const loadBefore = os.loadavg();
    const typed = typedItems(ITEMS);
    const keys = keysOf(typed);
    const start = Date.now();
    for (const [i, key] of keys.entries()) {
      const wait = start + (i * 1000) / KEYS_PER_SECOND - Date.now();
      if (wait > 0) await page.waitForTimeout(wait);
      await page.keyboard.press(key);
    }
    await expect(page.getByTestId("status-message")).toContainText("Nothing is left for you in this queue", { timeout: 120_000 });
    const loadAfter = os.loadavg();
    const marks = await page.evaluate(() => (window as unknown as { __reviewMarks: { enters: number[]; shown: { id: string; t: number }[] } }).__reviewMarks);
    // Enter i leaves item i for item i + 1 (the last Enter finds nothing left).
    const transitions = marks.enters.slice(0, ITEMS - 1).flatMap((t, i) => (marks.shown[i + 1] ? [marks.shown[i + 1]!.t - t] : []));
    const sorted = [...transitions].sort((a, b) => a - b);
    const { lost } = await savedAgainstTyped(seeded, typed);
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    console.log(`review benchmark: ${ITEMS} items, ${keys.length} keys at ${KEYS_PER_SECOND} keys/s; ${os.cpus().length} CPUs, Node ${process.version}`);
    console.log(`Enter → next item on screen (${sorted.length} transitions): p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1) ?? 0)}`);
    console.log(`lost keys: ${lost} (typed values not saved on the item they were typed for)`);
    console.log(`load average (1/5/15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(" / ")}, after ${loadAfter.map((l) => l.toFixed(2)).join(" / ")}`);
  } finally {
    await seeded.prisma.$disconnect();
  }
});
