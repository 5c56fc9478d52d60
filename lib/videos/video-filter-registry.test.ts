/**
 * The video list's filter, sort and category schemas are built from a task catalogue: the same schema object for
 * one catalogue (the OpenAPI document shows the very object a route's wrapper parses with), another for a catalogue
 * with one more task, which leaves the catalogue it came from as it was.
 */
import { describe, expect, it } from "vitest";
import { createQueueSchema } from "../queues/queues.validation";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { isVideoFilterKey, scoreCategories, videoFilterSchema, videoListQuerySchema, videoSorts } from "./video-filter";
import { builtInCatalogue, withTasks } from "../task-modules/task-catalogue";

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

describe("video filter schemas follow the task catalogue", () => {
  it("keeps one schema object per catalogue, and parses a task of a catalogue that has it, never of one that has not", () => {
    const base = builtInCatalogue();
    const before = videoListQuerySchema(base);
    expect(videoListQuerySchema(base)).toBe(before);
    // A metric filter no task of the catalogue declares is refused (a typo would list every video), not dropped.
    expect(videoFilterSchema(base).safeParse({ "min.late_metric": "3" }).success).toBe(false);
    expect(videoListQuerySchema(base).safeParse({ sort: "late_metric" }).success).toBe(false);

    const late = withTasks(base, { declarations: { id: "late-task", tasks: [lateTask] } });
    const during = videoListQuerySchema(late);
    expect(during).not.toBe(before);
    expect(videoListQuerySchema(late)).toBe(during);
    expect(isVideoFilterKey(late, "max.late_metric")).toBe(true);
    expect(videoSorts(late)).toContain("late_metric");
    expect(scoreCategories(late)).toContain("late_target");
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
      createQueueSchema(late).parse({
        name: "Late",
        scope: "scores",
        categories: ["late_target"],
        sort: "late_metric",
      }),
    ).toMatchObject({ categories: ["late_target"], sort: "late_metric" });

    // The catalogue it came from is as it was.
    expect(isVideoFilterKey(base, "max.late_metric")).toBe(false);
    expect(videoFilterSchema(base).safeParse({ "min.late_metric": "3" }).success).toBe(false);
    expect(
      createQueueSchema(base).safeParse({ name: "Late", scope: "scores", categories: ["late_target"] }).success,
    ).toBe(false);
  });
});
