// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { heatCell } from "@/lib/task-modules/task-display";
import { JudgeScoresPanel, type ScoresResponse } from "./judge-scores-panel";
import type { Judgment } from "./judgment-item";

/*
 * Issue 38 §5.5: the heat map coloured a cell by the judge's score but printed the reviewer's number in it.
 * A cell's number and tint now come from one value, and a switch picks which: the judge's, yours, or yours
 * minus the judge's.
 */
afterEach(cleanup);

const task = BUILT_IN_DECLARATIONS.findTask("hallucination")!;
const s7 = task.targets.find((t) => t.id === "s7")!;

const data: ScoresResponse = {
  run: {
    id: "r1",
    pipeline: "hallucination",
    status: "completed",
    simulated: false,
    createdAt: "2026-11-01T10:00:00.000Z",
    settings: {},
    endpointSnapshot: {},
  },
  summary: null,
  steps: [
    {
      id: "step1",
      stepId: "static_hallucination",
      scopeIndex: 0,
      status: "done",
      error: null,
      output: null,
      templateId: "hallucination/static",
      templateHash: null,
      attempts: 1,
      scores: [
        { id: "sc-s7", category: "s7", value: 9 },
        { id: "sc-s1", category: "s1", value: 4 },
      ],
    },
  ],
};

const mineOnS7: Judgment = {
  id: "j1",
  targetType: "score",
  scoreId: "sc-s7",
  runId: "r1",
  reviewer: { id: "u1", email: "me@example.com" },
  value: 2,
  note: null,
  reason: null,
  version: 1,
  updatedAt: "2026-11-01T11:00:00.000Z",
  history: [],
};

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <JudgeScoresPanel
        data={data}
        task={task}
        judgments={[mineOnS7]}
        videoId="v1"
        currentUserId="u1"
        canReview
        focus={null}
        onFocus={() => {}}
      />
    </QueryClientProvider>,
  );
}

const cellOf = (code: string) =>
  screen.getAllByTestId("score-cell").find((cell) => cell.getAttribute("data-category") === code)!;
const alphaOf = (cell: HTMLElement) => Number(cell.getAttribute("data-alpha"));

describe("the heat map's cells", () => {
  it("print and tint the judge's value by default, even where you gave your own", () => {
    renderPanel();
    const cell = cellOf("s7");
    expect(cell.textContent).toBe("9");
    expect(alphaOf(cell)).toBeCloseTo(heatCell(s7, 9).alpha, 3);
    expect(cell.style.background).toContain(String(heatCell(s7, 9).alpha).slice(0, 5));
    expect(screen.getByTestId("heat-map-view-judge").getAttribute("aria-checked")).toBe("true");
  });

  it("switch to your values, tinted by them, blank where you gave none", () => {
    renderPanel();
    fireEvent.click(screen.getByTestId("heat-map-view-mine"));
    expect(cellOf("s7").textContent).toBe("2");
    expect(alphaOf(cellOf("s7"))).toBeCloseTo(heatCell(s7, 2).alpha, 3);
    expect(cellOf("s7").getAttribute("data-positive")).toBe("false");
    expect(cellOf("s1").textContent).toBe("");
    expect(alphaOf(cellOf("s1"))).toBe(0);
  });

  it("switch to yours minus the judge's, tinted by the difference's size", () => {
    renderPanel();
    fireEvent.click(screen.getByTestId("heat-map-view-difference"));
    expect(cellOf("s7").textContent).toBe("−7");
    expect(alphaOf(cellOf("s7"))).toBeCloseTo((0.7 * 5) / 6, 3);
    expect(cellOf("s1").textContent).toBe("");
    fireEvent.click(screen.getByTestId("heat-map-view-judge"));
    expect(cellOf("s7").textContent).toBe("9");
  });
});
