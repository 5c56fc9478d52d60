// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SpanExportLinks } from "./span-export-links";

afterEach(cleanup);

const hrefs = () => screen.getAllByTestId("span-export-link").map((a) => a.getAttribute("href"));

describe("the span export links", () => {
  it("link every format of the span export, and the filtered run's judge spans when there is one", () => {
    render(<SpanExportLinks projectId="p1" runId="r1" />);
    expect(hrefs()).toEqual([
      "/api/v1/projects/p1/export/spans?format=csv",
      "/api/v1/projects/p1/export/spans?format=jsonl",
      "/api/v1/projects/p1/export/spans?format=label-studio",
      "/api/v1/projects/p1/export/spans?format=label-studio-config",
      "/api/v1/projects/p1/export/spans?format=csv&author=run%3Ar1",
    ]);
    cleanup();
    render(<SpanExportLinks projectId="p1" />);
    expect(hrefs()).toHaveLength(4);
  });
});
