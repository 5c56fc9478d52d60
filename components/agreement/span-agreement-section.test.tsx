// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SpanAgreementReport } from "@/lib/spans/agreement/load-span-agreement";
import { spanAgreement, spanAgreementByGenerator } from "@/testkit/spans/span-agreement";
import type { SpanAgreementInput, SpanAgreementRow } from "@/lib/spans/agreement/types";
import { SpanAgreementSection } from "./span-agreement-section";

afterEach(cleanup);

const span = (id: string, videoId: string, authorId: string, startFrame: number, endFrame: number, label = "s1") => ({
  id,
  videoId,
  authorId,
  label,
  startFrame,
  endFrame,
  boxes: [],
});

const LABELS = [
  { id: "s1", label: "Extra fingers" },
  { id: "s2", label: "Melting face" },
];

/** Sora made v1, Kling v2. */
const GENERATORS = new Map([
  ["v1", "Sora"],
  ["v2", "Kling"],
]);

/** Ann and the judge on two videos: judge 2–4 against Ann's 0–4 (IoU 3/5) on v1; Ann alone on v2. */
function report(
  spans: SpanAgreementRow[] = [
    span("a", "v1", "ann", 0, 4),
    span("j", "v1", "run:r", 2, 4),
    span("a2", "v2", "ann", 0, 1),
  ],
  withBob = false,
) {
  const input: SpanAgreementInput = {
    labels: LABELS,
    raters: [
      { id: "ann", kind: "reviewer", label: "Ann" },
      ...(withBob ? [{ id: "bob", kind: "reviewer" as const, label: "Bob" }] : []),
      { id: "run:r", kind: "judge", label: "Judge" },
    ],
    coverage: new Map([
      ["ann", new Set(["v1", "v2"])],
      ["bob", new Set(["v1", "v2"])],
      ["run:r", new Set(["v1", "v2", "v3"])],
    ]),
    frameCounts: new Map([
      ["v1", 10],
      ["v2", 10],
    ]),
    spans,
  };
  const result = spanAgreement(input, { iterations: 100 });
  const byGenerator = spanAgreementByGenerator(input, GENERATORS, { iterations: 100 });
  return { task: "hallucination", runId: null, label: null, ...result, byGenerator } satisfies SpanAgreementReport;
}

/** Two labels, two reviewers and a judge: per label Ann·Bob, the judge vs each of them and vs the people pooled. */
const twoLabels = () =>
  report(
    [
      span("a", "v1", "ann", 0, 4),
      span("b", "v1", "bob", 1, 4),
      span("j", "v1", "run:r", 2, 4),
      span("a2", "v2", "ann", 3, 8, "s2"),
      span("b2", "v2", "bob", 3, 7, "s2"),
      span("j2", "v2", "run:r", 5, 9, "s2"),
    ],
    true,
  );

function openDetails(details: HTMLElement) {
  act(() => {
    (details as HTMLDetailsElement).open = true;
    details.dispatchEvent(new Event("toggle"));
  });
}

describe("the Agreement page's Where (spans) section", () => {
  it("shows each label's comparisons at each IoU threshold, with their figures and a chart", () => {
    render(<SpanAgreementSection report={report()} />);
    expect(screen.getByRole("heading", { name: "Where (spans)" })).toBeTruthy();
    expect(screen.getByRole("rowheader", { name: "Extra fingers" })).toBeTruthy();
    expect(screen.getByTestId("span-comparison").textContent).toBe("Judge vs Ann1 vs 2 spans");
    // Matched at 0.1–0.5 (IoU 0.6): F1 = 2·1/3; not at 0.7.
    expect(screen.getByTestId("span-f1-judge:run:r|ann-0.5").textContent).toMatch(/^0\.67/);
    expect(screen.getByTestId("span-f1-judge:run:r|ann-0.7").textContent).toMatch(/^0\.00/);
    expect(screen.getByTestId("span-table-s1").textContent).toContain("no boxes");
    openDetails(screen.getByTestId("span-label-details"));
    expect(screen.getByTestId("span-f1-chart")).toBeTruthy();
    // v3: the judge looked at it but Ann did not, so it is not compared and not left out.
    expect(screen.queryByText(/left out/)).toBeNull();
  });

  it("summarises each label in one row with the IoU thresholds as columns, its comparisons closed under it", () => {
    const r = twoLabels();
    render(<SpanAgreementSection report={r} />);
    const rows = screen.getAllByTestId("span-label-row");
    expect(rows.map((row) => row.dataset.label)).toEqual(["s1", "s2"]);
    expect(screen.getAllByTestId("span-summary-threshold").map((th) => th.textContent)).toEqual([
      "F1 at IoU ≥ 0.1",
      "F1 at IoU ≥ 0.3",
      "F1 at IoU ≥ 0.5",
      "F1 at IoU ≥ 0.7",
    ]);
    // The headline is the judge against the people pooled, its F1 at each threshold a cell of the label's one row.
    for (const [i, label] of r.labels.entries()) {
      expect(label.comparisons.map((c) => c.kind).sort()).toEqual(
        ["judge_people", "judge_person", "judge_person", "people"].sort(),
      );
      const row = rows[i]!;
      expect(within(row).getByTestId("span-headline").textContent).toMatch(/^Judge vs people/);
      const pooled = label.comparisons.find((c) => c.kind === "judge_people")!;
      for (const t of pooled.thresholds)
        expect(within(row).getByTestId(`span-summary-f1-${label.label}-${t.threshold}`).textContent).toContain(
          t.f1.value === null ? "—" : t.f1.value.toFixed(2),
        );
    }
    // Closed by default, one per label; every comparison's figures are inside, none left out of the page.
    const details = screen.getAllByTestId("span-label-details") as HTMLDetailsElement[];
    expect(details).toHaveLength(2);
    expect(details.every((d) => d.tagName === "DETAILS" && !d.open)).toBe(true);
    for (const [i, label] of r.labels.entries())
      for (const c of label.comparisons) {
        for (const t of c.thresholds)
          expect(within(details[i]!).getByTestId(`span-f1-${c.key}-${t.threshold}`)).toBeTruthy();
        expect(within(details[i]!).getByTestId(`span-kappa-${c.key}`)).toBeTruthy();
      }
    expect(within(details[0]!).getAllByTestId("span-comparison")).toHaveLength(4);
    // The chart is drawn only once its label is opened, with its legend beside the plot rather than inside it.
    expect(screen.queryByTestId("span-f1-chart")).toBeNull();
    openDetails(details[1]!);
    const chart = within(details[1]!).getByTestId("span-f1-chart");
    expect(
      within(chart)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(r.labels[1]!.comparisons.map((c) => `${c.predictionLabel} vs ${c.referenceLabel}`));
  });

  it("says plainly when there are no spans yet", () => {
    render(<SpanAgreementSection report={report([])} />);
    expect(screen.getByTestId("span-agreement-empty").textContent).toContain("No spans yet");
    cleanup();
    render(<SpanAgreementSection report={null} />);
    expect(screen.getByTestId("span-agreement-empty")).toBeTruthy();
  });

  it("says why when the section is withheld or refused", () => {
    render(
      <SpanAgreementSection report={null} problem="This span agreement is hidden while you review a queue blind." />,
    );
    expect(screen.getByText(/hidden while you review/)).toBeTruthy();
    expect(screen.queryByTestId("span-agreement-empty")).toBeNull();
  });

  it("shows each generator's rows beside the whole report's: its videos alone, a row per label", () => {
    render(<SpanAgreementSection report={twoLabels()} />);
    const rows = screen.getAllByTestId("span-generator-row");
    // Kling made v2 (s2's spans), Sora v1 (s1's): each generator has the label marked on its video.
    expect(rows.map((row) => [row.dataset.generator, row.dataset.label])).toEqual([
      ["Kling", "s2"],
      ["Sora", "s1"],
    ]);
    // On v1 the judge's 2–4 against the people pooled: Ann 0–4 (IoU 3/5), Bob 1–4 (3/4): 2 matches at 0.5 of 2 + 2
    // spans, F1 1; at 0.7 only Bob's: F1 2·1/4 = 0.5.
    expect(screen.getByTestId("span-generator-f1-Sora-s1-0.5").textContent).toMatch(/^1\.00/);
    expect(screen.getByTestId("span-generator-f1-Sora-s1-0.7").textContent).toMatch(/^0\.50/);
    expect(within(rows[1]!).getByRole("rowheader").textContent).toBe("Sora1 video");
  });
});
