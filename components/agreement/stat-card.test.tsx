// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { JudgmentsCountedStat, Stat } from "./stat-card";

/*
 * Issue 38 §5.12: the Agreement page's "judgments counted" card set "independent only" in the large figure
 * font, so it ran to the card's edge (most visibly in dark mode). Words are set in the body size and wrap.
 */
afterEach(cleanup);

const classesOf = (testId: string) => screen.getByTestId(testId).className.split(/\s+/);

describe("the Agreement page's summary cards", () => {
  it("set which judgments are counted in the body size, wrapping inside the card", () => {
    render(<JudgmentsCountedStat independentOnly />);
    expect(screen.getByTestId("summary-independent").textContent).toBe("independent only");
    expect(classesOf("summary-independent")).not.toContain("text-xl");
    expect(classesOf("summary-independent")).toEqual(expect.arrayContaining(["text-sm", "break-words"]));
    // The card may shrink below its words' width in the grid instead of overflowing it.
    expect(screen.getByTestId("summary-independent").parentElement!.className).toContain("min-w-0");
    cleanup();
    render(<JudgmentsCountedStat independentOnly={false} />);
    expect(screen.getByTestId("summary-independent").textContent).toBe("all (incl. accepted)");
  });

  it("keep figures large", () => {
    render(<Stat label="videos" value="12" testId="summary-videos" />);
    expect(classesOf("summary-videos")).toContain("text-xl");
  });
});
