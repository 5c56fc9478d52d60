import { describe, expect, it } from "vitest";
import { binarise } from "../../testkit/agreement/binarise";
import { HALLUCINATION_TASK } from "../tasks/hallucination/task";
import { consensusOf } from "../reviews/consensus";
import { disagreesWithJudge } from "../reviews/disagreement";
import {
  binariseValue,
  consensusValue,
  disagreementGapOf,
  disagrees,
  formatValue,
  judgePresence,
  presenceSweepThresholds,
  presenceTargetOf,
  scaleViolation,
  type TargetDeclaration,
  type TaskDeclaration,
} from "./task-declaration";
import { declarationProblems } from "../../testkit/testing/declaration-problems";
import { judgmentDeclaration } from "../reviews/judgment-target";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

/** The presence targets of a task, in the order of its graded targets. */
function presenceTargets(task: TaskDeclaration): TargetDeclaration[] {
  return task.targets.flatMap((t) => presenceTargetOf(task, t.id) ?? []);
}

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
    expect(ids).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `s${i + 1}`),
      ...Array.from({ length: 9 }, (_, i) => `d${i + 1}`),
      "inconsistency",
    ]);
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
        for (const value of values)
          expect(disagrees(declared, value, judge), `${type} ${value} vs ${judge}`).toBe(
            disagreesWithJudge(judgmentDeclaration(type, null, BUILT_IN_DECLARATIONS.tasks), value, judge),
          );
        expect(binariseValue(declared.positive, judge)).toBe(
          binarise(type, judge, { threshold: 5, overallThreshold: 60 }, undefined, BUILT_IN_DECLARATIONS.tasks),
        );
      }
      for (const sample of [[], [values[0]!], values, [...values, values[0]!], [values.at(-1)!, values[0]!]]) {
        expect(consensusValue(declared.level, sample)).toEqual(
          consensusOf(type, sample, null, BUILT_IN_DECLARATIONS.tasks),
        );
      }
    }
  });

  it("defaults the disagreement gap to a fifth of a numeric range and 1 on a categorical scale", () => {
    expect(disagreementGapOf(target({ scale: { kind: "numeric", min: 0, max: 4, step: 1 } }))).toBeCloseTo(0.8);
    expect(disagreementGapOf(target({ scale: { kind: "numeric", min: 0, max: 100, step: null } }))).toBe(20);
    const binary = target({
      scale: {
        kind: "categorical",
        values: [
          { value: 0, label: "absent" },
          { value: 1, label: "present" },
        ],
      },
      level: "nominal",
    });
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
    const binary = target({
      scale: {
        kind: "categorical",
        values: [
          { value: 0, label: "no" },
          { value: 1, label: "yes" },
        ],
      },
      level: "nominal",
    });
    expect(scaleViolation(binary, 2)).toMatch(/not one of 0 \(no\), 1 \(yes\)/);
    expect(formatValue(binary, 1)).toBe("yes");
    expect(formatValue(t, 2.25)).toBe("2.25");
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

  it("declares per-video presence of every hallucination category and the prompt inconsistency, judged as 'max over scopes ≥ t'", () => {
    expect(HALLUCINATION_TASK.presence).toEqual({
      of: HALLUCINATION_TASK.targets.map((t) => t.id),
      absentValue: 0,
      judgeRule: "max over scopes >= t",
      defaultThreshold: 5,
    });
    expect(presenceTargets(HALLUCINATION_TASK).map((t) => t.id)).toEqual(HALLUCINATION_TASK.targets.map((t) => t.id));
    const s7 = presenceTargetOf(HALLUCINATION_TASK, "s7")!;
    expect(s7).toMatchObject({
      id: "s7",
      label: "Motion and blur inconsistency",
      level: "nominal",
      scope: "video",
      positive: { op: "==", value: 1 },
      groups: { kind: "static" },
    });
    expect(scaleViolation(s7, 1)).toBeNull();
    expect(scaleViolation(s7, 0)).toBeNull();
    expect(scaleViolation(s7, 5)).not.toBeNull();
    // The same object each time (agreement caches declarations by identity).
    expect(presenceTargetOf(HALLUCINATION_TASK, "s7")).toBe(s7);
    expect(presenceTargetOf(HALLUCINATION_TASK, "overall")).toBeUndefined();
    expect(presenceSweepThresholds(HALLUCINATION_TASK)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("maps graded scores to presence through t: the highest score over the scopes, present when ≥ t", () => {
    expect(judgePresence([2, 7, 4], 5)).toBe(1);
    expect(judgePresence([2, 4.5, 4], 5)).toBe(0);
    expect(judgePresence([5], 5)).toBe(1);
    expect(judgePresence([0, 0], 0)).toBe(1);
    expect(judgePresence([9.5], 10)).toBe(0);
    expect(judgePresence([], 5)).toBeNull();
  });

  it("finds inconsistent presence declarations", () => {
    const graded = target({
      id: "g",
      scale: { kind: "numeric", min: 0, max: 10, step: null },
      higherIsBetter: false,
      scope: "key_frame",
      positive: { op: ">=", threshold: 5, label: "x" },
    });
    const task = (presence: TaskDeclaration["presence"], over: Partial<TaskDeclaration> = {}): TaskDeclaration => ({
      id: "toy",
      label: "Toy",
      subject: "video",
      targets: [
        graded,
        target({
          id: "c",
          scale: {
            kind: "categorical",
            values: [
              { value: 0, label: "no" },
              { value: 1, label: "yes" },
            ],
          },
          level: "nominal",
          positive: { op: "==", value: 1, label: "yes" },
        }),
      ],
      metrics: [],
      groupings: [],
      presence,
      ...over,
    });
    const rule = "max over scopes >= t" as const;
    expect(declarationProblems(task({ of: ["g"], absentValue: 0, judgeRule: rule, defaultThreshold: 5 }))).toEqual([]);
    expect(
      declarationProblems(task({ of: ["g", "nope", "c"], absentValue: 11, judgeRule: rule, defaultThreshold: 12 })),
    ).toEqual([
      "presence: the absent value 11 is not on g's scale",
      "presence: the default threshold 12 is outside g's scale",
      'presence: "nope" is not a declared target',
      'presence: "c" is not graded on a numeric scale',
    ]);
    expect(
      declarationProblems(
        task({ of: ["g"], absentValue: 0, judgeRule: rule, defaultThreshold: 5 }, { subject: "caption" }),
      ),
    ).toEqual(["presence targets are per video: the task's subject must be the video"]);
  });
});
