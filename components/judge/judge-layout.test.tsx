// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunFormPipeline } from "@/lib/judge/runs/run-form";
import { JudgeLayout } from "./judge-layout";

/* The Judge page shows the defaults card of the pipeline chosen in the run form, and only it. */
vi.mock("next/navigation", () => ({
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
  usePathname: () => "/projects/p1/judge",
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const pipeline = (id: string, label: string): RunFormPipeline => ({ id, label, folderId: id, defaults: null });

describe("the Judge page's defaults cards", () => {
  it("follow the pipeline chosen in the run form", () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ endpoints: [], runs: [] }), {
            status: 200,
            headers: { "content-type": "application/json" },
          }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <JudgeLayout
          projectId="p1"
          canManage
          dimensions={[]}
          pipelines={[pipeline("hallucination", "Hallucination"), pipeline("vbench2", "VBench-2.0")]}
          endpointsCard={<section aria-label="Endpoints card" />}
          defaultsCards={[
            { pipelineId: "hallucination", card: <section aria-label="Hallucination defaults" /> },
            { pipelineId: "vbench2", card: <section aria-label="VBench-2.0 defaults" /> },
          ]}
        />
      </QueryClientProvider>,
    );
    expect(screen.getByRole("region", { name: "Endpoints card" })).toBeTruthy();
    expect(screen.getByRole("region", { name: "Hallucination defaults" })).toBeTruthy();
    expect(screen.queryByRole("region", { name: "VBench-2.0 defaults" })).toBeNull();
    fireEvent.change(screen.getByTestId("run-pipeline"), { target: { value: "vbench2" } });
    expect(screen.queryByRole("region", { name: "Hallucination defaults" })).toBeNull();
    expect(screen.getByRole("region", { name: "VBench-2.0 defaults" })).toBeTruthy();
  });
});
