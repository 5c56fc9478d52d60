// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SpanAgreementReport } from "@/lib/spans/agreement/load-span-agreement";
import { spanAgreement } from "@/lib/spans/agreement/span-agreement";
import { SpanAgreementSection } from "./span-agreement-section";

afterEach(cleanup);

const span = (id: string, videoId: string, authorId: string, startFrame: number, endFrame: number) => ({
  id,
  videoId,
  authorId,
  label: "s1",
  startFrame,
  endFrame,
  boxes: [],
});

/** Ann and the judge on two videos: judge 2–4 against Ann's 0–4 (IoU 3/5) on v1; Ann alone on v2. */
function report(spans = [span("a", "v1", "ann", 0, 4), span("j", "v1", "run:r", 2, 4), span("a2", "v2", "ann", 0, 1)]) {
  const result = spanAgreement(
    {
      labels: [{ id: "s1", label: "Extra fingers" }],
      raters: [
        { id: "ann", kind: "reviewer", label: "Ann" },
        { id: "run:r", kind: "judge", label: "Judge" },
      ],
      coverage: new Map([
        ["ann", new Set(["v1", "v2"])],
        ["run:r", new Set(["v1", "v2", "v3"])],
      ]),
      frameCounts: new Map([
        ["v1", 10],
        ["v2", 10],
      ]),
      spans,
    },
    { iterations: 100 },
  );
  return { task: "hallucination", runId: null, label: null, ...result } satisfies SpanAgreementReport;
}

describe("the Agreement page's Where (spans) section", () => {
  it("shows each label's comparisons at each IoU threshold, with their figures and a chart", () => {
    render(<SpanAgreementSection report={report()} />);
    expect(screen.getByRole("heading", { name: "Where (spans)" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Extra fingers" })).toBeTruthy();
    expect(screen.getByTestId("span-comparison").textContent).toBe("Judge vs Ann1 vs 2 spans");
    // Matched at 0.1–0.5 (IoU 0.6): F1 = 2·1/3; not at 0.7.
    expect(screen.getByTestId("span-f1-judge:run:r|ann-0.5").textContent).toMatch(/^0\.67/);
    expect(screen.getByTestId("span-f1-judge:run:r|ann-0.7").textContent).toMatch(/^0\.00/);
    expect(screen.getByTestId("span-table-s1").textContent).toContain("no boxes");
    expect(screen.getByTestId("span-f1-chart")).toBeTruthy();
    // v3: the judge looked at it but Ann did not, so it is not compared and not left out.
    expect(screen.queryByText(/left out/)).toBeNull();
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
});
