/**
 * A VBench-2.0 question a reviewer answers "no" to may be marked where: the span's label is the dimension's answer
 * target and its item the question (`material:q2`), as the review screen finds them with spanLabelOfCategory.
 */
import { describe, expect, it } from "vitest";
import { frameTimesFromTimestamps } from "../../frames/frame-times";
import { spanLabelOfCategory, taskSpanLabels } from "../../spans/span-labels";
import { spanProblem } from "../../spans/span-validation";
import { HALLUCINATION_TASK } from "../hallucination/task";
import { questionCategory } from "./dimension";
import { answerTargetId, VBENCH2_TASK } from "./vbench2-task";
import { JUDGED_DIMENSIONS } from "./vbench2-dimensions";

const times = frameTimesFromTimestamps(Array.from({ length: 10 }, (_, i) => i / 8))!;
const context = { times, labels: taskSpanLabels(VBENCH2_TASK) };
const span = (label: string, itemId: string) => ({
  task: "vbench2",
  label,
  itemId,
  startFrame: 2,
  endFrame: 4,
  boxes: [],
  note: "",
});

describe("VBench-2.0 questions as span labels", () => {
  const dimension = JUDGED_DIMENSIONS[0]!;
  const other = JUDGED_DIMENSIONS[1]!;
  const question = questionCategory(dimension, 1);

  it("labels each dimension's questions with its answer target, the question's category as the item", () => {
    const labels = taskSpanLabels(VBENCH2_TASK);
    expect(labels.map((l) => l.id)).toEqual(JUDGED_DIMENSIONS.map(answerTargetId));
    expect(labels[0]!.itemPrefix).toBe(question.slice(0, -1));
    expect(spanLabelOfCategory(VBENCH2_TASK, question)).toEqual({ label: answerTargetId(dimension), itemId: question });
  });

  it("accepts a span of the question's own dimension, or of the dimension as a whole, and refuses another's", () => {
    expect(spanProblem(span(answerTargetId(dimension), question), context)).toBeNull();
    expect(spanProblem(span(answerTargetId(dimension), ""), context)).toBeNull();
    expect(spanProblem(span(answerTargetId(other), question), context)).toMatch(
      new RegExp(`"${question}" is not a question of ${answerTargetId(other)}`),
    );
    for (const bad of [`${question.slice(0, -1)}0`, `${question.slice(0, -1)}x`, `${question}.5`, "q2"])
      expect(spanProblem(span(answerTargetId(dimension), bad), context)).toMatch(/is not a question of/);
  });

  it("leaves plain targets as they are: a hallucination category is its own label with no item", () => {
    expect(spanLabelOfCategory(HALLUCINATION_TASK, "s3")).toEqual({ label: "s3", itemId: "" });
    expect(spanLabelOfCategory(HALLUCINATION_TASK, "nope")).toBeNull();
    expect(taskSpanLabels(HALLUCINATION_TASK).some((l) => l.itemPrefix)).toBe(false);
  });
});
