// @vitest-environment happy-dom
import { act, cleanup, render, renderHook, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import { ItemFileRowView, itemFileFailure, useItemFileRows, type ItemFileRow } from "./item-file-rows";

/*
 * What the tasks' item file sections on the Import page share (the caption files' and the question sets'):
 * a refused file's problems with their lines, one row per dropped path, and the row's report.
 */
afterEach(cleanup);

const file = new File(["x"], "set.jsonl");
const refusal = () =>
  new ApiError(422, "invalid_file", "set.jsonl: nothing was imported: line 2: no such video.", {
    error: {
      code: "invalid_file",
      details: {
        errors: [
          { line: 2, message: "no such video" },
          { line: null, message: "empty" },
        ],
        unmatched: ["a.mp4"],
      },
    },
  });

describe("item file rows", () => {
  it("reads a refused file's problems and missing videos from the API's error, and any other failure as an error", () => {
    expect(itemFileFailure(refusal())).toEqual({
      state: "invalid",
      message: "set.jsonl: nothing was imported: line 2: no such video.",
      errors: [
        { line: 2, message: "no such video" },
        { line: null, message: "empty" },
      ],
      unmatched: ["a.mp4"],
    });
    expect(itemFileFailure(new ApiError(500, "internal", "boom", null))).toEqual({
      state: "error",
      message: "boom",
      errors: undefined,
      unmatched: undefined,
    });
    expect(itemFileFailure(new TypeError("Failed to fetch"))).toMatchObject({
      state: "error",
      message: "Failed to fetch",
    });
  });

  it("adds one row per newly dropped path, lets the panel arrange them, and patches one row by key", () => {
    const toRow = (path: string): ItemFileRow & { linked?: string } => ({
      key: path,
      file,
      relativePath: path,
      state: "new",
    });
    const arrange = (rows: (ItemFileRow & { linked?: string })[]) =>
      rows.map((row) => ({ ...row, linked: rows[0]!.key }));
    const { result, rerender } = renderHook(
      ({ files }) => useItemFileRows(files, (path: string) => path, toRow, arrange),
      { initialProps: { files: ["a/one.jsonl"] } },
    );
    rerender({ files: ["a/one.jsonl", "a/two.jsonl", "a/one.jsonl"] });
    expect(result.current.rows.map((row) => [row.key, row.linked])).toEqual([
      ["a/one.jsonl", "a/one.jsonl"],
      ["a/two.jsonl", "a/one.jsonl"],
    ]);
    act(() => result.current.patch("a/two.jsonl", { state: "checked" }));
    expect(result.current.rows.map((row) => row.state)).toEqual(["new", "checked"]);
    expect(result.current.current.current.map((row) => row.state)).toEqual(["new", "checked"]);
  });

  it("shows a row's state, its message, every problem with its line and the missing videos, under the panel's test id", () => {
    const row: ItemFileRow = { key: "k", file, relativePath: "sets/set.jsonl", ...itemFileFailure(refusal()) };
    render(
      <ul>
        <ItemFileRowView row={row} testId="toy-file" summary={<p>summary here</p>}>
          <span>controls here</span>
        </ItemFileRowView>
      </ul>,
    );
    expect(screen.getByTestId("toy-file").dataset).toMatchObject({ state: "invalid", path: "sets/set.jsonl" });
    expect(screen.getByTestId("toy-file-state").textContent).toBe("invalid");
    expect(screen.getByTestId("toy-file-message").textContent).toContain("nothing was imported");
    expect([...screen.getByTestId("toy-file-errors").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "line 2: no such video",
      "empty",
    ]);
    expect(screen.getByTestId("toy-file-unmatched").textContent).toBe("Not in the project: a.mp4");
    expect(screen.getByText("controls here")).toBeTruthy();
    expect(screen.getByText("summary here")).toBeTruthy();
  });
});
