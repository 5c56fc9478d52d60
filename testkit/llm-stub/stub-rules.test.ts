import { describe, expect, it } from "vitest";
import { TASK_KITS } from "../task-kits";
import { defaultStubRules } from "./stub-rules";

describe("the stub's rule list", () => {
  it("is the alignment simulation's optimizer and judge, the rubric tasks' rule, the pairwise judge's, every task folder's rules in TASK_FOLDER_IDS order, construction's before QA's, then the endpoint test's and its video probe's", () => {
    expect(defaultStubRules().map((rule) => rule.name)).toEqual([
      "alignment-optimizer",
      "alignment-judge",
      "rubric",
      "pairwise",
      "alignment-inconsistency-judge",
      "alignment-verdict-static",
      "alignment-verdict-dynamic",
      "alignment-verdict-inconsistency",
      "static-knowledge-graph",
      "dynamic-knowledge-graph",
      "video-summary",
      "inconsistency-check",
      "static-hallucination",
      "dynamic-hallucination",
      "caption-rubric",
      "caption-content",
      "construction-generate",
      "construction-categorise",
      "construction-blind-obvious",
      "construction-hallucination",
      "construction-answer-with-annotations",
      "construction-unspecific",
      "construction-six-wrong",
      "construction-pick-four",
      "construction-best-without-video",
      "construction-best-with-video",
      "qa-answer-mc",
      "qa-answer-open",
      "qa-text-only-mc",
      "qa-text-only-open",
      "qa-judge-option",
      "qa-judge-open",
      "vbench2-text-judge",
      "vbench2-person-number",
      "vbench2-summarise",
      "vbench2-describe",
      "vbench2-yes-no",
      "endpoint-test",
      "endpoint-video-probe",
    ]);
  });

  it("moves a task before the first task its stubRulesBefore names, wherever that one is", () => {
    const rule = (name: string) => ({ name, match: new RegExp(name), respond: () => name });
    const [a, b, c] = ["a", "b", "c"].map((id) => ({ id, stubRules: [rule(id)] }));
    const names = (kits: Parameters<typeof defaultStubRules>[0]) => defaultStubRules(kits).map((r) => r.name);
    expect(names([a!, b!, { ...c!, stubRulesBefore: ["b"] }])).toEqual([
      "alignment-optimizer",
      "alignment-judge",
      "rubric",
      "pairwise",
      "a",
      "c",
      "b",
      "endpoint-test",
      "endpoint-video-probe",
    ]);
    expect(names([a!, b!, { ...c!, stubRulesBefore: ["x"] }])).toEqual([
      "alignment-optimizer",
      "alignment-judge",
      "rubric",
      "pairwise",
      "a",
      "b",
      "c",
      "endpoint-test",
      "endpoint-video-probe",
    ]);
    expect(TASK_KITS.length).toBeGreaterThan(1);
  });
});
