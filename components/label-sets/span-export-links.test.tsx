// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { judgeSpanRuns, SpanExportLinks } from "./span-export-links";

afterEach(cleanup);

const links = () =>
  screen.getAllByTestId("span-export-link").map((a) => [a.textContent, a.getAttribute("href")] as const);

const run = (id: string, pipeline: string, day: number) => ({
  id,
  pipeline,
  endpointName: "stub",
  model: "m",
  createdAt: `2026-11-${day}T10:00:00.000Z`,
});
const runs = [run("r1", "hallucination", 20), run("r2", "hallucination", 21), run("c1", "captions", 22)];

describe("the span export links", () => {
  it("link every format of the span export, and the named run's judge spans by the run's name", () => {
    const catalogue = builtInCatalogue().declarations();
    render(<SpanExportLinks projectId="p1" runs={judgeSpanRuns(runs, "r1", catalogue)} />);
    const all = links();
    expect(all.map(([, href]) => href)).toEqual([
      "/api/v1/projects/p1/export/spans?format=csv",
      "/api/v1/projects/p1/export/spans?format=jsonl",
      "/api/v1/projects/p1/export/spans?format=label-studio",
      "/api/v1/projects/p1/export/spans?format=label-studio-config",
      "/api/v1/projects/p1/export/spans?format=csv&author=run%3Ar1",
    ]);
    expect(all[4]![0]).toMatch(/^Judge spans of .*20 Nov.* \(CSV\)$/);
  });

  it("with every run, offer one link per run that marks spans, never the latest run's alone", () => {
    const catalogue = builtInCatalogue().declarations();
    render(<SpanExportLinks projectId="p1" runs={judgeSpanRuns(runs, undefined, catalogue)} />);
    const judge = links().slice(4);
    expect(judge.map(([, href]) => href)).toEqual([
      "/api/v1/projects/p1/export/spans?format=csv&author=run%3Ar1",
      "/api/v1/projects/p1/export/spans?format=csv&author=run%3Ar2",
    ]);
    expect(new Set(judge.map(([label]) => label)).size).toBe(2);
    cleanup();
    render(<SpanExportLinks projectId="p1" />);
    expect(links()).toHaveLength(4);
  });
});
