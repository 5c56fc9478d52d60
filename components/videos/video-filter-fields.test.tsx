// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { VideoFilterFields } from "./video-filter-fields";

/* The video filter's fields offer "has spans": any, by people, by a judge run (the list's `spans=`). */
afterEach(cleanup);

describe("the video filter's fields", () => {
  it("offer the spans filter with its current choice", () => {
    const { container } = render(
      <form>
        <VideoFilterFields
          values={{ spans: "people" }}
          dimensions={[]}
          models={[]}
          runs={[]}
          noRunLabel="latest"
          task={builtInCatalogue().taskOf("hallucination")}
        />
      </form>,
    );
    const select = container.querySelector('select[name="spans"]') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["", "with or without"],
      ["any", "any spans"],
      ["people", "spans by people"],
      ["judge", "spans by a judge run"],
    ]);
    expect(select.value).toBe("people");
    expect(screen.getByText("Spans")).toBeTruthy();
  });

  it("keep the run choice to a width the form holds, its long run names whole in its list", () => {
    const long =
      "Hallucination · stub-vision @ Stub LLM (simulated) · 28 Nov 2026 09:22:57 · aggregation mean-max, input mode video-frames";
    const { container } = render(
      <form>
        <VideoFilterFields
          values={{ runId: "r1" }}
          dimensions={[]}
          models={[]}
          runs={[{ id: "r1", label: long }]}
          noRunLabel="latest"
          task={builtInCatalogue().taskOf("hallucination")}
        />
      </form>,
    );
    const select = container.querySelector('select[name="runId"]') as HTMLSelectElement;
    expect(select.className).toContain("max-w-md");
    expect([...select.options].map((o) => o.textContent)).toEqual(["latest", long]);
    expect(select.value).toBe("r1");
  });
});
