import { describe, expect, it } from "vitest";
import { CAPTION_CONTENT_TASK } from "../tasks/captions/caption-tasks";
import { formatJudgmentValue, labelledAggregates } from "./labelled-aggregates";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

describe("labelled aggregates", () => {
  const judgments = [
    { reviewer: { id: "me" }, value: 1 },
    { reviewer: { id: "a" }, value: 1 },
    { reviewer: { id: "b" }, value: 0 },
  ];

  it("says whose each value is: the judge, you, the reviewers' consensus with its size", () => {
    expect(labelledAggregates("verdict", 0, judgments, "me", BUILT_IN_DECLARATIONS.tasks)).toEqual({
      judge: { label: "Judge", value: 0 },
      you: { label: "You", value: 1 },
      consensus: { label: "Reviewers' consensus (3)", value: 1 },
    });
  });

  it("has no 'You' before the caller judged and no consensus without reviewers", () => {
    expect(labelledAggregates("overall", 55, judgments.slice(1), "me", BUILT_IN_DECLARATIONS.tasks)).toMatchObject({
      you: null,
      consensus: { label: "Reviewers' consensus (2)", value: 0.5 },
    });
    expect(labelledAggregates("overall", 55, [], "me", BUILT_IN_DECLARATIONS.tasks)).toEqual({
      judge: { label: "Judge", value: 55 },
      you: null,
      consensus: null,
    });
  });

  it("reports a verdict tie as no consensus", () => {
    expect(labelledAggregates("verdict", 1, judgments.slice(1), "me", BUILT_IN_DECLARATIONS.tasks).consensus).toEqual({
      label: "Reviewers' consensus (2)",
      value: null,
    });
    expect(formatJudgmentValue("verdict", null, BUILT_IN_DECLARATIONS.tasks, { tie: true })).toBe("no majority (tie)");
  });

  it("formats verdicts as yes/no and numbers with at most two decimals, no trailing zeros", () => {
    expect(formatJudgmentValue("verdict", 1, BUILT_IN_DECLARATIONS.tasks)).toBe("yes");
    expect(formatJudgmentValue("verdict", 0, BUILT_IN_DECLARATIONS.tasks)).toBe("no");
    expect(formatJudgmentValue("overall", 62.25, BUILT_IN_DECLARATIONS.tasks)).toBe("62.25");
    expect(formatJudgmentValue("overall", 62.5, BUILT_IN_DECLARATIONS.tasks)).toBe("62.5");
    expect(formatJudgmentValue("overall", 62, BUILT_IN_DECLARATIONS.tasks)).toBe("62");
    expect(formatJudgmentValue("score", null, BUILT_IN_DECLARATIONS.tasks)).toBe("—");
  });

  it("reads any task's declaration: a key point's consensus is the majority, named hit / missed", () => {
    const keyPoint = CAPTION_CONTENT_TASK.targets.find((t) => t.id === "key_point")!;
    const votes = [1, 1, 0].map((value, i) => ({ reviewer: { id: `r${i}` }, value }));
    expect(labelledAggregates(keyPoint, 0, votes, "r2", BUILT_IN_DECLARATIONS.tasks).consensus).toEqual({
      label: "Reviewers' consensus (3)",
      value: 1,
    });
    expect(formatJudgmentValue(keyPoint, 1, BUILT_IN_DECLARATIONS.tasks)).toBe("hit");
    expect(formatJudgmentValue(keyPoint, 0, BUILT_IN_DECLARATIONS.tasks)).toBe("missed");
    expect(
      labelledAggregates(keyPoint, 0, votes.slice(1), "r2", BUILT_IN_DECLARATIONS.tasks).consensus?.value,
    ).toBeNull();
    expect(formatJudgmentValue(keyPoint, null, BUILT_IN_DECLARATIONS.tasks, { tie: true })).toBe("no majority (tie)");
  });
});
