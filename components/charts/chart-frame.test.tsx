// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AgreementCharts } from "@/components/agreement/agreement-charts";
import { SpanAgreementSection } from "@/components/agreement/span-agreement-section";
import { LeaderboardChart } from "@/components/leaderboard/leaderboard-chart";
import { FunnelChart } from "@/components/tasks/construction/funnel-chart";
import { agreementReport } from "@/lib/agreement/report/agreement-report";
import { type AgreementItem, DEFAULT_AGREEMENT_OPTIONS } from "@/lib/agreement/types";
import type { LeaderboardGenerator } from "@/lib/leaderboard/leaderboard";
import { spanAgreement } from "@/testkit/spans/span-agreement";
import { ChartFrame } from "./chart-frame";
import { chartFileName, serialiseChartSvg } from "./chart-svg";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";

afterEach(cleanup);

const SVG_NS = "http://www.w3.org/2000/svg";

/** A chart as the pages draw one: an <svg> in a card, its text coloured by a class of the page's stylesheet. */
function renderStyledChart() {
  const style = document.createElement("style");
  style.textContent =
    ".tick-text { fill: rgb(1, 2, 3); font-size: 11px; } .card { background-color: rgb(250, 250, 240); }";
  document.head.append(style);
  render(
    <div className="card">
      <ChartFrame
        title="Threshold sweep, overall"
        legend={[
          { name: "f1", color: "#4f46e5" },
          { name: "kappa", color: "#64748b", dash: "3 3" },
        ]}
      >
        <svg
          viewBox="0 0 200 100"
          width={200}
          height={100}
          data-testid="plot"
          className="w-full"
          style={{ width: "100%", height: "100%", display: "block" }}
        >
          <rect x={10} y={10} width={50} height={40} fill="#6366f1" className="bar" />
          <text x={20} y={90} className="tick-text">
            0.5
          </text>
        </svg>
      </ChartFrame>
    </div>,
  );
  return { svg: screen.getByTestId("plot") as unknown as SVGSVGElement, style };
}

describe("a chart as an SVG file", () => {
  it("is a standalone document: namespaced, titled, on the page's background, its styles inline and its legend under it", () => {
    const { svg, style } = renderStyledChart();
    const chart = serialiseChartSvg(svg, {
      title: "Threshold sweep, overall",
      legend: [
        { name: "f1", color: "#4f46e5" },
        { name: "kappa", color: "#64748b", dash: "3 3" },
      ],
    });
    style.remove();
    expect(chart.svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(chart.svg).toContain(`xmlns="${SVG_NS}"`);
    // Nothing in the file refers to the page's stylesheet.
    expect(chart.svg).not.toMatch(/\sclass=/);

    const parsed = new DOMParser().parseFromString(chart.svg, "image/svg+xml");
    const root = parsed.documentElement;
    expect(root.namespaceURI).toBe(SVG_NS);
    expect(root.localName).toBe("svg");
    expect(root.firstElementChild?.localName).toBe("title");
    expect(root.firstElementChild?.textContent).toBe("Threshold sweep, overall");
    // The plot keeps its size; the legend adds its rows under it.
    expect(chart.width).toBe(200);
    expect(chart.height).toBeGreaterThan(100);
    expect(root.getAttribute("viewBox")).toBe(`0 0 200 ${chart.height}`);
    // The plot is drawn at its own size, not stretched over the legend by a CSS size of 100%.
    const plot = root.querySelector(":scope > svg")!;
    expect([plot.getAttribute("width"), plot.getAttribute("height")]).toEqual(["200", "100"]);
    expect(plot.getAttribute("style")).not.toMatch(/(^|;)\s*(width|height):/);
    const background = root.children[1]!;
    expect(background.localName).toBe("rect");
    expect(background.getAttribute("fill")).toBe("rgb(250, 250, 240)");
    const tick = [...root.querySelectorAll("text")].find((t) => t.textContent?.trim() === "0.5")!;
    expect(tick.getAttribute("style")).toContain("fill: rgb(1, 2, 3)");
    expect(tick.getAttribute("style")).toContain("font-size: 11px");
    expect([...root.querySelectorAll(":scope > text")].map((t) => t.textContent)).toEqual(["f1", "kappa"]);
    expect(root.querySelector(":scope > line[stroke-dasharray='3 3']")?.getAttribute("stroke")).toBe("#64748b");
    expect(root.getAttribute("style")).toMatch(/font-family: .*sans-serif/);
  });

  it("is named for its chart", () => {
    expect(chartFileName("Judge vs reviewers' consensus, per score", "svg")).toBe(
      "framejury_judge-vs-reviewers-consensus-per-score.svg",
    );
    expect(chartFileName("κ", "png")).toBe("framejury_chart.png");
  });

  it("downloads from the chart's own button, named for the chart", async () => {
    renderStyledChart();
    const saved: { name: string; href: string }[] = [];
    const onClick = (e: Event) => {
      if (e.target instanceof HTMLAnchorElement && e.target.download) {
        saved.push({ name: e.target.download, href: e.target.href });
        e.preventDefault();
      }
    };
    document.addEventListener("click", onClick);
    try {
      fireEvent.click(screen.getByRole("button", { name: "Download SVG" }));
      await waitFor(() => expect(saved).toHaveLength(1));
    } finally {
      document.removeEventListener("click", onClick);
    }
    expect(saved[0]!.name).toBe("framejury_threshold-sweep-overall.svg");
    expect(saved[0]!.href).toMatch(/^blob:/);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says so when the chart is not drawn yet", async () => {
    render(
      <ChartFrame title="Empty">
        <p>drawing…</p>
      </ChartFrame>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Download PNG" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The chart is not drawn yet.");
  });
});

let seq = 0;
function item(targetType: string, judge: number, ratings: Record<string, number>): AgreementItem {
  seq++;
  return {
    key: `r1|k${seq}`,
    targetKey: `k${seq}`,
    runId: "r1",
    videoId: `vid${seq}`,
    category: targetType === "score" ? "s1" : targetType,
    stepId: targetType === "score" ? "static_hallucination" : null,
    scopeIndex: targetType === "score" ? 0 : null,
    dimensions: ["Mechanics"],
    model: "Sora",
    endpointId: "e1",
    promptVersion: "aaaaaaaaaaaa",
    targetType,
    judge,
    videoValues:
      targetType === "verdict"
        ? { I: judge * 8, overall: 100 - judge * 60, S: null, D: null, worst: judge * 8 }
        : undefined,
    ratings: Object.entries(ratings).map(([reviewerId, value]) => ({ reviewerId, value })),
  } as AgreementItem;
}

/** Scores and verdicts of one run that two reviewers checked: every chart of the agreement page has something to draw. */
function agreement() {
  seq = 0;
  return agreementReport(
    {
      items: [
        item("score", 8, { A: 9, B: 7 }),
        item("score", 2, { A: 1, B: 3 }),
        item("score", 6, { A: 2, B: 2 }),
        item("verdict", 1, { A: 1, B: 1 }),
        item("verdict", 1, { A: 0, B: 0 }),
        item("verdict", 0, { A: 0, B: 0 }),
      ],
      reviewers: [
        { id: "A", label: "Ann" },
        { id: "B", label: "Bob" },
      ],
      runs: [
        { id: "r1", endpointId: "e1", endpointName: "gpt", model: "gpt-4o", createdAt: "2026-01-01T00:00:00.000Z" },
      ],
      videoCount: 6,
      judgeItemCount: 6,
      tasks: BUILT_IN_DECLARATIONS.tasks,
    },
    { ...DEFAULT_AGREEMENT_OPTIONS, iterations: 50 },
  );
}

const downloadButtons = (element: HTMLElement) => ({
  svg: within(element).getAllByRole("button", { name: "Download SVG" }).length,
  png: within(element).getAllByRole("button", { name: "Download PNG" }).length,
});

describe("every chart offers its SVG and PNG", () => {
  it("the agreement page's confusion map, scatter, category bars and threshold sweep", () => {
    render(<AgreementCharts projectId="p1" report={agreement()} />);
    for (const id of ["chart-scatter", "chart-categories", "chart-sweep"])
      expect(downloadButtons(screen.getByTestId(id))).toEqual({ svg: 1, png: 1 });
    const confusion = screen.getByTestId("confusion-verdict").closest("section")!;
    expect(downloadButtons(confusion)).toEqual({ svg: 1, png: 1 });
    // The confusion map is drawn without measuring the page: its file is the map itself.
    const chart = serialiseChartSvg(screen.getByTestId("confusion-verdict") as unknown as SVGSVGElement, {
      title: "Confusion matrix, verdict",
    });
    expect(chart.svg).toContain("<title>Confusion matrix, verdict</title>");
    expect(chart.svg).toContain("humans: yes");
  });

  it("the spans' F1 by threshold, the leaderboard and the construction funnel", () => {
    const spans = spanAgreement({
      labels: [{ id: "s1", label: "Extra fingers" }],
      raters: [
        { id: "ann", kind: "reviewer", label: "Ann" },
        { id: "run:r", kind: "judge", label: "Judge" },
      ],
      coverage: new Map([
        ["ann", new Set(["v1"])],
        ["run:r", new Set(["v1"])],
      ]),
      frameCounts: new Map([["v1", 10]]),
      spans: [
        { id: "a", videoId: "v1", authorId: "ann", label: "s1", startFrame: 0, endFrame: 4, boxes: [] },
        { id: "j", videoId: "v1", authorId: "run:r", label: "s1", startFrame: 2, endFrame: 4, boxes: [] },
      ],
    });
    // No generator named: the section's by-generator rows are empty.
    const report = { task: "hallucination", runId: null, label: null, ...spans, byGenerator: [] };
    render(<SpanAgreementSection report={report} />);
    const details = screen.getByTestId("span-label-details") as HTMLDetailsElement;
    act(() => {
      details.open = true;
      details.dispatchEvent(new Event("toggle"));
    });
    expect(downloadButtons(screen.getByTestId("span-f1-chart"))).toEqual({ svg: 1, png: 1 });
    cleanup();

    const generator = (model: string, score: number): LeaderboardGenerator => ({
      model,
      rank: 1,
      dimensions: { overall: { score, lower: score - 0.1, upper: score + 0.1, n: 3, excluded: 0, prompts: 3 } },
      categories: {},
      total: { value: score, lower: null, upper: null },
    });
    render(
      <LeaderboardChart
        generators={[generator("Sora", 0.8), generator("Kling", 0.6)]}
        dimension="overall"
        percent={false}
        domain={[0, 1]}
      />,
    );
    expect(downloadButtons(screen.getByTestId("leaderboard-chart"))).toEqual({ svg: 1, png: 1 });
    cleanup();

    render(<FunnelChart stages={[{ label: "generated", kept: 3, removed: 1, pending: 2 }]} />);
    expect(downloadButtons(screen.getByTestId("funnel-chart"))).toEqual({ svg: 1, png: 1 });
  });
});
