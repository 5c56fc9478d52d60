import os from "node:os";
import { expect, test } from "@playwright/test";
import { keysOf, savedAgainstTyped, seedReviewSession, typedItems } from "../review-session";

// The review screen's transitions, timed in the browser: a reviewer types a scripted session of ITEMS items
// at KEYS_PER_SECOND (s1 digit, j, s2 digit, Enter per item). Prints, p50 / p95 / max: the time from each Enter
// key press to the next item on screen (it includes waiting behind earlier transitions when they are slower
// than the typing), from the submission's start to the next item on screen (the transition itself), and the
// submit request's round trip; then the keys that did not arrive (compared with what was saved), and the
// machine's load. Numbers only, no assertions on them.
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const KEYS_PER_SECOND = Number(process.env.BENCH_KEYS_PER_SECOND ?? 10);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

test("review transitions", async ({ page, request, baseURL }) => {
  const seeded = await seedReviewSession(page, request, baseURL!, ITEMS, "bench-review");
  try {
    // In the page: when each Enter was pressed, and when each new item's screen appeared.
    await page.addInitScript(() => {
      const marks = {
        enters: [] as number[],
        shown: [] as { id: string; t: number }[],
        submits: [] as { start: number; end: number }[],
      };
      const fetch = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (!url.includes("/submit")) return fetch(input, init);
        const mark = { start: performance.now(), end: 0 };
        marks.submits.push(mark);
        const response = await fetch(input, init);
        mark.end = performance.now();
        return response;
      };
      (window as unknown as { __reviewMarks: typeof marks }).__reviewMarks = marks;
      window.addEventListener(
        "keydown",
        (event) => void (event.key === "Enter" && marks.enters.push(performance.now())),
        true,
      );
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
    await expect(page.getByTestId("status-message")).toContainText("Nothing is left for you in this queue", {
      timeout: 120_000,
    });
    const loadAfter = os.loadavg();
    const marks = await page.evaluate(
      () =>
        (
          window as unknown as {
            __reviewMarks: {
              enters: number[];
              shown: { id: string; t: number }[];
              submits: { start: number; end: number }[];
            };
          }
        ).__reviewMarks,
    );
    // Enter i leaves item i for item i + 1 (the last Enter finds nothing left).
    const after = (starts: number[]) =>
      starts.slice(0, ITEMS - 1).flatMap((t, i) => (marks.shown[i + 1] ? [marks.shown[i + 1]!.t - t] : []));
    const { lost } = await savedAgainstTyped(seeded, typed);
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    const line = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(
        `${label} (${sorted.length}): p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1) ?? 0)}`,
      );
    };
    console.log(
      `review benchmark: ${ITEMS} items, ${keys.length} keys at ${KEYS_PER_SECOND} keys/s; ${os.cpus().length} CPUs, Node ${process.version}`,
    );
    line("Enter key press → next item on screen", after(marks.enters));
    line("submission start → next item on screen", after(marks.submits.map((s) => s.start)));
    line(
      "submit request round trip (submit + claim + next item's payload)",
      marks.submits.map((s) => s.end - s.start),
    );
    console.log(`lost keys: ${lost} (typed values not saved on the item they were typed for)`);
    console.log(
      `load average (1/5/15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(" / ")}, after ${loadAfter.map((l) => l.toFixed(2)).join(" / ")}`,
    );
  } finally {
    await seeded.prisma.$disconnect();
  }
});
