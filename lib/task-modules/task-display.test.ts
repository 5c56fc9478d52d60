import { describe, expect, it } from "vitest";
import { HALLUCINATION_TASK } from "../tasks/hallucination/task";
import type { TargetDeclaration, TaskDeclaration } from "./task-declaration";
import {
  choiceLabels,
  heatCell,
  heatCellShown,
  inlineLabel,
  meaningOf,
  metricsLine,
  scaleHint,
  scopeLabel,
  summaryMetricValues,
  targetSections,
} from "./task-display";

const captionStyle: TargetDeclaration = {
  id: "style",
  label: "Style score",
  definition: "How well the caption follows the requested style.",
  scale: { kind: "numeric", min: 0, max: 4, step: 1 },
  level: "ordinal",
  higherIsBetter: true,
  scope: "item",
  positive: { op: "<", threshold: 2, label: "poor style" },
};

describe("reading a task declaration for display", () => {
  it("groups the hallucination targets into static, dynamic and prompt sections with all 20 codes", () => {
    const sections = targetSections(HALLUCINATION_TASK);
    expect(sections.map((s) => [s.label, s.targets.length])).toEqual([
      ["Static (per key frame)", 10],
      ["Dynamic (per cluster)", 9],
      ["Prompt consistency", 1],
    ]);
    expect(sections.flatMap((s) => s.targets.map((t) => t.id))).toEqual(HALLUCINATION_TASK.targets.map((t) => t.id));
  });

  it("puts targets outside the grouping under Other, and a task without groupings in one section", () => {
    const task: Pick<TaskDeclaration, "targets" | "groupings"> = {
      targets: [captionStyle, { ...captionStyle, id: "content", groups: { type: "brief" } }],
      groupings: [{ id: "type", label: "Caption type", values: [{ id: "brief", label: "Brief" }] }],
    };
    expect(targetSections(task).map((s) => [s.id, s.targets.map((t) => t.id)])).toEqual([
      ["brief", ["content"]],
      ["other", ["style"]],
    ]);
    expect(targetSections({ targets: [captionStyle], groupings: [] }).map((s) => s.targets.length)).toEqual([1]);
    // A grouping of items, not targets (caption type), leaves the targets in one section.
    expect(
      targetSections({ targets: [captionStyle], groupings: task.groupings }).map((s) => [s.id, s.targets.length]),
    ).toEqual([["all", 1]]);
  });

  it("names a code from the declaration: s7 is motion and blur, S is a metric, an unknown code has no meaning", () => {
    expect(meaningOf(HALLUCINATION_TASK, "s7")).toMatchObject({ id: "s7", label: "Motion and blur inconsistency" });
    expect(meaningOf(HALLUCINATION_TASK, "s7")!.definition.length).toBeGreaterThan(20);
    expect(meaningOf(HALLUCINATION_TASK, "S")!.definition).toContain("Static hallucination");
    expect(meaningOf(HALLUCINATION_TASK, "zz")).toBeNull();
    expect(meaningOf(null, "s7")).toBeNull();
  });

  it("reads a stored hallucination summary as the declared metrics, the verdict from its boolean", () => {
    expect(
      summaryMetricValues(HALLUCINATION_TASK, { S: 2, D: 3, I: 1, overall: 66, hallucination: false, complete: true }),
    ).toEqual({ I: 1, S: 2, D: 3, overall: 66, verdict: 0 });
    expect(summaryMetricValues(HALLUCINATION_TASK, { S: null, hallucination: true })).toEqual({
      I: null,
      S: null,
      D: null,
      overall: null,
      verdict: 1,
    });
    expect(summaryMetricValues(HALLUCINATION_TASK, null)).toEqual({
      I: null,
      S: null,
      D: null,
      overall: null,
      verdict: null,
    });
  });

  it("writes the metrics line as the pages did: codes kept, words lower-cased, the verdict in words", () => {
    const line = metricsLine(HALLUCINATION_TASK, { I: 1, S: 2.25, D: 3, overall: 61.5, verdict: 1 });
    expect(line.map((m) => `${m.label} ${m.text}`).join(" · ")).toBe(
      "I 1 · S 2.25 · D 3 · overall 61.5 · hallucination yes",
    );
    // One precision for scores wherever they show (lib/format/numbers formatScore): never "5.10" beside "5.1".
    expect(metricsLine(HALLUCINATION_TASK, { S: 5.1, overall: 75 }).map((m) => m.text)).toEqual([
      "—",
      "5.1",
      "—",
      "75",
      "—",
    ]);
    expect(inlineLabel("Style score")).toBe("style score");
    expect(inlineLabel("I")).toBe("I");
  });

  it("colours a heat-map cell toward the bad end of the target's own scale and marks the declared positive class", () => {
    const s7 = HALLUCINATION_TASK.targets.find((t) => t.id === "s7")!;
    // Today's tint for a 0–10 intensity was value / 12.
    for (const value of [0, 3, 5, 10]) expect(heatCell(s7, value).alpha).toBeCloseTo(value / 12, 10);
    expect(heatCell(s7, 4.9).positive).toBe(false);
    expect(heatCell(s7, 5).positive).toBe(true);
    // Higher is better on a 0–4 caption score: 0 is the darkest, and below 2 is positive ("poor style").
    expect(heatCell(captionStyle, 0).alpha).toBeCloseTo(5 / 6, 10);
    expect(heatCell(captionStyle, 4).alpha).toBe(0);
    expect(heatCell(captionStyle, 1).positive).toBe(true);
    expect(heatCell(captionStyle, 2).positive).toBe(false);
  });

  it("takes a heat-map cell's number and tint from one value: the judge's, yours, or yours minus the judge's", () => {
    const s7 = HALLUCINATION_TASK.targets.find((t) => t.id === "s7")!;
    // The reported bug: a cell tinted by the judge's 9 printed the reviewer's 2.
    const judge = heatCellShown(s7, "judge", 9, 2);
    expect(judge).toMatchObject({ text: "9", hue: "score", positive: true });
    expect(judge.alpha).toBeCloseTo(heatCell(s7, 9).alpha, 10);
    const mine = heatCellShown(s7, "mine", 9, 2);
    expect(mine).toMatchObject({ text: "2", hue: "score", positive: false });
    expect(mine.alpha).toBeCloseTo(heatCell(s7, 2).alpha, 10);
    expect(heatCellShown(s7, "mine", 9, null)).toEqual({ text: "", hue: "score", alpha: 0, positive: false });
    const difference = heatCellShown(s7, "difference", 9, 2);
    expect(difference).toMatchObject({ text: "−7", hue: "difference" });
    expect(difference.alpha).toBeCloseTo((0.7 * 5) / 6, 10);
    expect(heatCellShown(s7, "difference", 2, 5).text).toBe("+3");
    expect(heatCellShown(s7, "difference", 4, 4)).toMatchObject({ text: "0", alpha: 0 });
    // Fractional values (a mean) read as every score does: at most 2 decimals, never "5.125" or "+0.125".
    expect(heatCellShown(s7, "judge", 5.125, null).text).toBe("5.13");
    expect(heatCellShown(s7, "difference", 5.125, 6).text).toBe("+0.88");
    expect(heatCellShown(s7, "difference", 5.002, 5).text).toBe("0");
    expect(heatCellShown(s7, "difference", 4, null).text).toBe("");
  });

  it("words scopes, scales and yes/no choices from the declaration", () => {
    expect(scopeLabel("key_frame", 0)).toBe("key frame 1");
    expect(scopeLabel("cluster", 1)).toBe("cluster 2");
    expect(scopeLabel("video", 0)).toBe("whole video");
    const overall = HALLUCINATION_TASK.metrics.find((m) => m.id === "overall")!;
    const verdict = HALLUCINATION_TASK.metrics.find((m) => m.id === "verdict")!;
    expect(scaleHint(overall)).toBe("0–100, higher is better");
    expect(scaleHint(verdict)).toBe("yes/no");
    expect(choiceLabels(verdict)).toEqual([
      { value: 1, label: "yes, hallucination" },
      { value: 0, label: "no hallucination" },
    ]);
  });
});
