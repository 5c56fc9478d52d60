/**
 * The video list's filter, sort and category schemas are built from the task registry when a query is
 * parsed: the same schema object while the registry is unchanged (the OpenAPI document shows the very object a
 * route's wrapper parses with), a new one once a task is registered or taken out again.
 */
import { describe, expect, it } from "vitest";
import { createQueueSchema } from "../queues/queues.validation";
import { registerTaskDeclarations } from "../tasks/registry";
import type { TaskDeclaration } from "../tasks/task-declaration";
import { isVideoFilterKey, scoreCategories, videoFilterSchema, videoListQuerySchema, videoSorts } from "./video-filter";

const lateTask: TaskDeclaration = {
  id: "late_task",
  label: "Late task",
  subject: "video",
  targets: [
    {
      id: "late_target",
      label: "Late",
      definition: "A late target.",
      scale: { kind: "numeric", min: 0, max: 20, step: 1 },
      level: "ordinal",
      higherIsBetter: true,
      scope: "video",
      positive: { op: ">=", threshold: 10, label: "late" },
    },
  ],
  metrics: [
    {
      id: "late_metric",
      label: "Late metric",
      definition: "A late metric.",
      aggregation: "late",
      scale: { kind: "numeric", min: 0, max: 20, step: null },
      level: "ordinal",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 10, label: "late" },
    },
  ],
  groupings: [],
};

describe("video filter schemas follow the task registry", () => {
  it("keeps one schema object per registry state, and parses a task registered later until it is taken out", () => {
    const before = videoListQuerySchema();
    expect(videoListQuerySchema()).toBe(before);
    // A metric filter no registered task declares is refused (a typo would list every video), not dropped.
    expect(videoFilterSchema().safeParse({ "min.late_metric": "3" }).success).toBe(false);
    expect(videoListQuerySchema().safeParse({ sort: "late_metric" }).success).toBe(false);

    const unregister = registerTaskDeclarations({ id: "late-task", tasks: [lateTask] });
    try {
      const during = videoListQuerySchema();
      expect(during).not.toBe(before);
      expect(videoListQuerySchema()).toBe(during);
      expect(isVideoFilterKey("max.late_metric")).toBe(true);
      expect(videoSorts()).toContain("late_metric");
      expect(scoreCategories()).toContain("late_target");
      expect(
        during.parse({ "min.late_metric": "3", sort: "late_metric", category: "late_target", categoryMax: "18" }),
      ).toMatchObject({
        "min.late_metric": 3,
        sort: "late_metric",
        category: "late_target",
        categoryMax: 18,
      });
      expect(during.safeParse({ "min.late_metric": "21" }).success).toBe(false);
      expect(
        createQueueSchema().parse({ name: "Late", scope: "scores", categories: ["late_target"], sort: "late_metric" }),
      ).toMatchObject({ categories: ["late_target"], sort: "late_metric" });
    } finally {
      unregister();
    }

    expect(isVideoFilterKey("max.late_metric")).toBe(false);
    expect(videoFilterSchema().safeParse({ "min.late_metric": "3" }).success).toBe(false);
    expect(createQueueSchema().safeParse({ name: "Late", scope: "scores", categories: ["late_target"] }).success).toBe(
      false,
    );
  });
});
