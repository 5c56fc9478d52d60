import { describe, expect, it } from "vitest";
import { declarationProblems } from "./task-declaration";
import { TASKS, taskOf } from "./registry";
import { installedPipelines } from "../task-modules/installed-task-modules";

describe("pipelines and their task declarations", () => {
  it("every pipeline carries the registry's declaration, consistent, and every declared task has a pipeline", () => {
    for (const pipeline of Object.values(installedPipelines())) {
      expect(pipeline.task).toBe(taskOf(pipeline.id));
      expect(declarationProblems(pipeline.task)).toEqual([]);
    }
    expect(TASKS.map((t) => t.id).sort()).toEqual(Object.keys(installedPipelines()).sort());
  });

  it("returns a value or null for every declared metric, and nothing else", () => {
    const pipeline = installedPipelines().hallucination!;
    const values = pipeline.metricValues({ S: 2, D: null, I: 1, overall: null, hallucination: true });
    expect(Object.keys(values).sort()).toEqual(pipeline.task.metrics.map((m) => m.id).sort());
    expect(values).toMatchObject({ S: 2, D: null, I: 1, overall: null, verdict: 1 });
    expect(pipeline.metricValues({ S: 0, D: 0, I: 0, overall: 100, hallucination: false }).verdict).toBe(0);
  });
});
