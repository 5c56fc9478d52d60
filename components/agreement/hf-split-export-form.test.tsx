// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { hfDatasetQuerySchema, hfSplitSpecOf } from "@/lib/export/hf-splits.validation";
import { HfSplitExportForm } from "./hf-split-export-form";

/* Issue 38 §4: the export dialog offers the three splits, and what it submits is a query the route accepts. */
afterEach(cleanup);

describe("HfSplitExportForm", () => {
  it("offers seed, metadata field and label set, with the project's fields, and submits a query the route parses", () => {
    render(<HfSplitExportForm projectId="p1" runId="r1" metadataFields={["model", "seed", "camera"]} />);
    const radios = screen.getAllByRole("radio") as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(["seed", "metadata", "labelSet"]);
    expect((screen.getByRole("combobox") as HTMLSelectElement).querySelectorAll("option").length).toBe(3);
    const form = screen.getByRole("button", { name: "Download (.tar)" }).closest("form")!;
    expect(form.getAttribute("action")).toBe("/api/v1/projects/p1/export/hf-dataset");
    expect(form.getAttribute("method")).toBe("get");

    // What the browser would send for each choice: every field goes along, the other kinds' ignored.
    const submitted = (split: string) => {
      const query = Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
      return hfSplitSpecOf(hfDatasetQuerySchema.parse({ ...query, split }));
    };
    expect(submitted("seed")).toEqual({ kind: "seed", seed: "42", ratios: { train: 0.8, validation: 0.1, test: 0.1 } });
    expect(submitted("metadata")).toEqual({ kind: "metadata", field: "model" });
    expect(submitted("labelSet")).toEqual({ kind: "labelSet" });
  });
});
