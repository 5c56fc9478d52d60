import { describe, expect, it } from "vitest";
import { binarise } from "../agreement/report";
import { HALLUCINATION_TASK } from "../judge/pipelines/hallucination-task";
import { consensusOf } from "../reviews/consensus";
import { disagreesWithJudge } from "../reviews/disagreement";
import {
  binariseValue,
  consensusValue,
  declarationProblems,
  disagreementGapOf,
  disagrees,
  formatValue,
  scaleViolation,
  type TargetDeclaration,
  type TaskDeclaration,
} from "./task-declaration";

const target = (over: Partial<TargetDeclaration>): TargetDeclaration => ({
  id: "t",
  label: "T",
  definition: "a target",
  scale: { kind: "numeric", min: 0, max: 4, step: 1 },
  level: "ordinal",
  higherIsBetter: true,
  scope: "item",
  positive: { op: ">=", threshold: 3, label: "good" },
  ...over,
});

describe("task declarations", () => {
  it("the hallucination task declares s1–s10, d1–d9 and inconsistency with consistent metadata", () => {
    expect(declarationProblems(HALLUCINATION_TASK)).toEqual([]);
    const ids = HALLUCINATION_TASK.targets.map((t) => t.id);
    expect(ids).toEqual([...Array.from({ length: 10 }, (_, i) => `s${i + 1}`), ...Array.from({ length: 9 }, (_, i) => `d${i + 1}`), "inconsistency"]);
    expect(HALLUCINATION_TASK.metrics.map((m) => m.id)).toEqual(["I", "S", "D", "overall", "verdict"]);
    expect(HALLUCINATION_TASK.targets.find((t) => t.id === "s7")!.label).toBe("Motion and blur inconsistency");
  });

  // The declaration must reproduce today's hard-coded rules before the core reads it instead of them.
  it("reproduces today's disagreement, consensus and binarising rules for hallucination", () => {
    const s1 = HALLUCINATION_TASK.targets[0]!;
    const overall = HALLUCINATION_TASK.metrics.find((m) => m.id === "overall")!;
    const verdict = HALLUCINATION_TASK.metrics.find((m) => m.id === "verdict")!;
    const cases: [TargetDeclaration | typeof overall, "score" | "overall" | "verdict", number[]][] = [
      [s1, "score", [0, 1, 1.5, 2, 5, 7.5, 10]],
      [overall, "overall", [0, 45, 55, 59.9, 60, 64, 100]],
      [verdict, "verdict", [0, 1]],
    ];
    for (const [declared, type, values] of cases) {
      for (const judge of values) {
        for (const value of values) expect(disagrees(declared, value, judge), `${type} ${value} vs ${judge}`).toBe(disagreesWithJudge(type, value, judge));
        expect(binariseValue(declared.positive, judge)).toBe(binarise(type, judge, { threshold: 5, overallThreshold: 60 }));
      }
      for (const sample of [[], [values[0]!], values, [...values, values[0]!], [values.at(-1)!, values[0]!]]) {
        expect(consensusValue(declared.level, sample)).toEqual(consensusOf(type, sample));
      }
    }
  });

  it("defaults the disagreement gap to a fifth of a numeric range and 1 on a categorical scale", () => {
    expect(disagreementGapOf(target({ scale: { kind: "numeric", min: 0, max: 4, step: 1 } }))).toBeCloseTo(0.8);
    expect(disagreementGapOf(target({ scale: { kind: "numeric", min: 0, max: 100, step: null } }))).toBe(20);
    const binary = target({ scale: { kind: "categorical", values: [{ value: 0, label: "absent" }, { value: 1, label: "present" }] }, level: "nominal" });
    expect(disagreementGapOf(binary)).toBe(1);
    expect(disagrees(binary, 1, 0)).toBe(true);
    expect(disagrees(binary, 1, null)).toBe(false);
  });

  it("refuses values off the scale instead of clamping them", () => {
    const t = target({});
    expect(scaleViolation(t, 3)).toBeNull();
    expect(scaleViolation(t, 5)).toMatch(/outside 0–4/);
    expect(scaleViolation(t, 2.5)).toMatch(/multiple of 1/);
    expect(scaleViolation(t, Number.NaN)).toMatch(/number/);
    const binary = target({ scale: { kind: "categorical", values: [{ value: 0, label: "no" }, { value: 1, label: "yes" }] }, level: "nominal" });
    expect(scaleViolation(binary, 2)).toMatch(/not one of 0 \(no\), 1 \(yes\)/);
    expect(formatValue(binary, 1)).toBe("yes");
    expect(formatValue(t, 2.25)).toBe("2.3");
    expect(formatValue(t, null)).toBe("—");
  });

  it("applies a binarising threshold given at report time over the declared one", () => {
    expect(binariseValue({ op: ">=", threshold: 5 }, 4)).toBe(0);
    expect(binariseValue({ op: ">=", threshold: 5 }, 4, 3)).toBe(1);
    expect(binariseValue({ op: "<", threshold: 60 }, 59)).toBe(1);
    expect(binariseValue({ op: "==", value: 1 }, 1)).toBe(1);
  });

  it("takes the majority on nominal targets and calls a tie no consensus", () => {
    expect(consensusValue("nominal", [2, 2, 3])).toBe(2);
    expect(consensusValue("nominal", [2, 3])).toBeNull();
    expect(consensusValue("ordinal", [1, 4])).toBe(2.5);
  });

  it("reports what is inconsistent in a declaration", () => {
    const broken: TaskDeclaration = {
      id: "toy",
      label: "Toy",
      subject: "caption",
      targets: [
        target({ id: "a", groups: { type: "brief" } }),
        target({ id: "a", label: " ", scale: { kind: "numeric", min: 4, max: 4, step: 1 } }),
        target({ id: "b", groups: { missing: "x" }, positive: { op: "==", value: 9, label: "nine" } }),
      ],
      metrics: [],
      verdict: { metricId: "nope", rule: "" },
      groupings: [{ id: "type", label: "Type", values: [{ id: "detail", label: "Detail" }] }],
    };
    const problems = declarationProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        'target id "a" is declared twice',
        "a: empty label",
        "a: max must exceed min",
        "b: the positive value is not on the scale",
        'verdict metric "nope" is not declared',
        'a: "brief" is not a value of grouping "type"',
        'b: grouping "missing" is not declared',
      ]),
    );
  });
});
