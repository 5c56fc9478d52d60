// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ProjectSpanCounts } from "./project-span-counts";

/* The project overview's spans: the counts by people, judge runs and the gold, each linking to the filtered list. */
afterEach(cleanup);

describe("the overview's spans", () => {
  it("counts people's, judge runs' and gold spans, linking to the videos that have them", () => {
    render(<ProjectSpanCounts projectId="p1" counts={{ people: 3, judge: 1, gold: 1 }} />);
    expect(screen.getByTestId("span-counts").textContent).toBe("5 spans: 3 by people · 1 by judge runs · 1 gold");
    expect(screen.getAllByTestId("span-count-link").map((a) => a.getAttribute("href"))).toEqual([
      "/projects/p1/videos?spans=any",
      "/projects/p1/videos?spans=people",
      "/projects/p1/videos?spans=judge",
    ]);
  });

  it("says how spans are made when there are none", () => {
    render(<ProjectSpanCounts projectId="p1" counts={{ people: 0, judge: 0, gold: 0 }} />);
    expect(screen.getByTestId("span-counts").textContent).toMatch(/^No spans yet/);
    expect(screen.queryAllByTestId("span-count-link")).toEqual([]);
  });
});
