// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FilterSelect, VideoFilterSelect } from "./filter-select";

afterEach(cleanup);

const optionsOf = (select: HTMLElement) => within(select).getAllByRole("option") as HTMLOptionElement[];

describe("a list page's filter select", () => {
  it("labels the select, puts the empty option first and selects the default value", () => {
    render(
      <FilterSelect
        label="Model"
        name="model"
        defaultValue="gpt"
        empty="every model"
        options={["claude", "gpt"]}
        testId="filter-model"
      />,
    );
    const select = screen.getByLabelText("Model") as HTMLSelectElement;
    expect(select).toBe(screen.getByTestId("filter-model"));
    expect(select.name).toBe("model");
    expect(optionsOf(select).map((o) => [o.value, o.textContent])).toEqual([
      ["", "every model"],
      ["claude", "claude"],
      ["gpt", "gpt"],
    ]);
    expect(select.value).toBe("gpt");
    // The markup the filter forms used by hand: the label's text in a span above the select.
    const label = select.closest("label")!;
    expect(label.className).toBe("flex flex-col gap-1");
    expect(label.firstElementChild!.tagName).toBe("SPAN");
    expect(label.firstElementChild!.textContent).toBe("Model");
  });

  it("shows each option's label under its value, has no empty option unless asked, and adds classes to the input style", () => {
    render(
      <FilterSelect
        label="Video"
        name="videoId"
        defaultValue="v2"
        options={[
          { value: "v1", label: "a.mp4" },
          { value: "v2", label: "b.mp4" },
        ]}
        className="max-w-64"
        labelClassName="font-medium"
      />,
    );
    const select = screen.getByLabelText("Video") as HTMLSelectElement;
    expect(optionsOf(select).map((o) => [o.value, o.textContent])).toEqual([
      ["v1", "a.mp4"],
      ["v2", "b.mp4"],
    ]);
    expect(select.value).toBe("v2");
    expect(select.className.split(" ")).toEqual(expect.arrayContaining(["rounded-md", "border", "max-w-64"]));
    expect(select.hasAttribute("data-testid")).toBe(false);
    expect(select.closest("label")!.firstElementChild!.className).toBe("font-medium");
  });

  it("selects the empty option when the filter is off", () => {
    render(<FilterSelect label="Outcome" name="outcome" defaultValue="" empty="any" options={["correct", "wrong"]} />);
    const select = screen.getByLabelText("Outcome") as HTMLSelectElement;
    expect(select.value).toBe("");
    expect(select.selectedOptions[0]!.textContent).toBe("any");
  });

  it("offers a project's videos by path under the Video filter, every video first", () => {
    render(
      <VideoFilterSelect
        videos={[
          { id: "v1", relativePath: "Mechanics/a ball-0.mp4" },
          { id: "v2", relativePath: "Material/ice-1.mp4" },
        ]}
        defaultValue="v2"
      />,
    );
    const select = screen.getByLabelText("Video") as HTMLSelectElement;
    expect(select.name).toBe("videoId");
    expect(optionsOf(select).map((o) => [o.value, o.textContent])).toEqual([
      ["", "every video"],
      ["v1", "Mechanics/a ball-0.mp4"],
      ["v2", "Material/ice-1.mp4"],
    ]);
    expect(select.value).toBe("v2");
  });
});
