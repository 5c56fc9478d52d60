// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SubjectViews } from "@/components/tasks/subject-views";

afterEach(cleanup);

/** The review screen shows a rubric item queue's item (its `rubricItem`) with each declared field, labelled. */
describe("a rubric item under review", () => {
  it("is shown by the subject views under its key, with its id, each field's label and value, and an empty one marked", () => {
    const rubricItem = {
      id: "i1",
      externalId: "c1",
      fields: [
        { id: "text", label: "caption", value: "A dog runs." },
        { id: "reference", label: "reference caption", value: "" },
      ],
    };
    render(<SubjectViews item={{ rubricItem, caption: null, answer: null }} blind />);
    const section = screen.getByTestId("review-rubric-item");
    expect(section.textContent).toContain("Item c1");
    const fields = screen.getAllByTestId("review-rubric-item-field");
    expect(fields.map((f) => [f.dataset.field, f.textContent])).toEqual([
      ["text", "captionA dog runs."],
      ["reference", "reference caption(empty)"],
    ]);
  });

  it("shows nothing for an item of another kind of queue", () => {
    render(<SubjectViews item={{ rubricItem: null }} blind={false} />);
    expect(screen.queryByTestId("review-rubric-item")).toBeNull();
  });
});
