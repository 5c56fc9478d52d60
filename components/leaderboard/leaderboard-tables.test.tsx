// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LeaderboardPairsTable, LeaderboardTable } from "@/components/leaderboard/leaderboard-tables";
import { buildLeaderboard } from "@/lib/leaderboard/leaderboard";

afterEach(cleanup);

// A: 0.6 and 0.8 (two prompts) → 0.7; B: 0.5 and 0.3 → 0.4; C shares no prompt with them.
const result = buildLeaderboard({
  rows: [
    { generator: "A", promptKey: "p1", dimension: "score", value: 0.6 },
    { generator: "A", promptKey: "p2", dimension: "score", value: 0.8 },
    { generator: "B", promptKey: "p1", dimension: "score", value: 0.5 },
    { generator: "B", promptKey: "p2", dimension: "score", value: 0.3 },
    { generator: "C", promptKey: "p9", dimension: "score", value: 0.1 },
  ],
  dimensions: ["score"],
  bootstrap: { seed: 1, samples: 200 },
});

describe("the leaderboard page's tables", () => {
  it("list the models in ranking order with the mean and its interval, as percentages for a share", () => {
    render(<LeaderboardTable result={result} dimension="score" percent />);
    const rows = screen.getAllByTestId("leaderboard-row");
    expect(rows.map((r) => within(r).getAllByRole("cell")[1]!.textContent)).toEqual(["A", "B", "C"]);
    const a = result.generators[0]!.dimensions.score!;
    expect(within(rows[0]!).getAllByRole("cell")[2]!.textContent).toBe(
      `70.0% [${(a.lower! * 100).toFixed(1)}%, ${(a.upper! * 100).toFixed(1)}%]`,
    );
    expect(within(rows[2]!).getAllByRole("cell")[2]!.textContent).toBe("10.0% [10.0%, 10.0%]");
  });

  it("list every pair with its shared prompts, difference and p, and say when a pair shares none", () => {
    render(<LeaderboardPairsTable pairs={result.pairs} percent={false} />);
    const rows = screen.getAllByTestId("leaderboard-pair");
    expect(rows).toHaveLength(3);
    const cells = (i: number) =>
      within(rows[i]!)
        .getAllByRole("cell")
        .map((c) => c.textContent);
    expect(cells(0).slice(0, 3)).toEqual(["A", "B", "2"]);
    expect(cells(0)[3]).toMatch(/^0\.30 \[/);
    expect(cells(1)).toEqual(["A", "C", "0", "no shared prompt", "—"]);
  });
});
