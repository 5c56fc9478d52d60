// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RubricItemValuesTable } from "@/components/rubrics/rubric-item-values-table";
import type { RubricItemValues } from "@/lib/rubrics/rubric-item-values";

afterEach(cleanup);

const list: RubricItemValues = {
  criteria: [
    { id: "faithful", name: "Faithfulness", type: "numeric", higherIsBetter: true, values: null },
    {
      id: "fluent",
      name: "Fluent",
      type: "boolean",
      higherIsBetter: true,
      values: [
        { value: 1, label: "yes" },
        { value: 0, label: "no" },
      ],
    },
  ],
  rows: [
    {
      itemId: "i1",
      externalId: "c1",
      videoId: "v1",
      fileName: "dog.mp4",
      fields: [{ id: "text", label: "caption", value: "A dog runs." }],
      values: { faithful: 4, fluent: 1 },
      shown: { faithful: "4", fluent: "yes" },
      blind: false,
    },
    {
      itemId: "i2",
      externalId: "c2",
      videoId: "v2",
      fileName: "cat.mp4",
      fields: [{ id: "text", label: "caption", value: "A cat." }],
      values: { faithful: null, fluent: null },
      shown: { faithful: "—", fluent: "—" },
      blind: true,
    },
  ],
  total: 3,
  query: { sort: "faithful", dir: "asc", criterion: "faithful", min: 3, max: null, text: "" },
};

describe("the run page's list of an item run's values", () => {
  it("shows a row per item with its fields and a column per criterion, marks a blind one, and sorts by a criterion keeping the filter", () => {
    render(<RubricItemValuesTable projectId="p1" runId="r1" list={list} />);
    expect(screen.getAllByTestId("rubric-item-criterion").map((th) => th.textContent)).toEqual([
      "Faithfulness ▲",
      "Fluent",
    ]);
    const rows = screen.getAllByTestId("rubric-item-row");
    expect(rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent))).toEqual([
      ["c1", "dog.mp4", "caption: A dog runs.", "4", "yes"],
      ["c2", "cat.mp4", "caption: A cat.", "blind", "blind"],
    ]);
    expect(screen.getByTestId("rubric-item-count").textContent).toBe("2 of 3 items");
    // Sorting the sorted column again reverses it; the filter stays in the link.
    const faithful = screen.getByText("Faithfulness ▲").closest("a")!;
    const href = new URL(faithful.getAttribute("href")!, "http://x");
    expect(href.pathname).toBe("/projects/p1/runs/r1");
    expect(Object.fromEntries(href.searchParams)).toEqual({
      itemCriterion: "faithful",
      itemMin: "3",
      itemSort: "faithful",
      itemDir: "desc",
    });
  });
});
