import { describe, expect, it } from "vitest";
import { declarationProblems } from "../../testkit/testing/declaration-problems";
import { BUILT_IN_DECLARATIONS } from "./registry";
import { builtInCatalogue } from "../task-modules/task-catalogue";

describe("pipelines and their task declarations", () => {
  it("every pipeline carries the registry's declaration, consistent, and every declared task has a pipeline", () => {
    for (const pipeline of Object.values(builtInCatalogue().pipelines)) {
      expect(pipeline.task).toBe(BUILT_IN_DECLARATIONS.taskOf(pipeline.id));
      expect(declarationProblems(pipeline.task)).toEqual([]);
    }
    expect(BUILT_IN_DECLARATIONS.tasks.map((t) => t.id).sort()).toEqual(
      Object.keys(builtInCatalogue().pipelines).sort(),
    );
  });

  it("returns a value or null for every declared metric, and nothing else", () => {
    const pipeline = builtInCatalogue().pipelines.hallucination!;
    const values = pipeline.metricValues({ S: 2, D: null, I: 1, overall: null, hallucination: true });
    expect(Object.keys(values).sort()).toEqual(pipeline.task.metrics.map((m) => m.id).sort());
    expect(values).toMatchObject({ S: 2, D: null, I: 1, overall: null, verdict: 1 });
    expect(pipeline.metricValues({ S: 0, D: 0, I: 0, overall: 100, hallucination: false }).verdict).toBe(0);
  });
});
