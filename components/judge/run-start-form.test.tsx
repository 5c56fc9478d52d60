// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunStartForm, useRunStart, type Endpoint } from "./run-start-form";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const endpoints: Endpoint[] = [
  {
    id: "e1",
    name: "Stub",
    model: "stub-vision",
    baseUrl: "http://stub/v1",
    hasApiKey: false,
    maxConcurrency: 4,
    requestsPerMinute: null,
    supportsBatchApi: false,
  },
];
const pipelines: { id: string; folderId: string; label: string; defaults: Record<string, unknown> | null }[] = [
  { id: "hallucination", folderId: "hallucination", label: "Hallucination", defaults: null },
];
/** A task whose settings hold its frame count: the form offers a frame-count sweep. */
const captions = { id: "caption_style", folderId: "captions", label: "Caption style", defaults: { frames: 8 } };
const part = { request: {}, ready: true };

const estimate = {
  calls: 30,
  images: 54,
  videoFrames: 0,
  videoSeconds: 0,
  inputTokens: 20_000,
  outputTokens: 9_000,
  costUsd: 0.4,
  inputMode: "images",
  rule: { source: "stub", charsPerToken: 4 },
  defaultOutputTokens: 300,
  steps: [],
};

function Form({ pipeline = pipelines[0]! }: { pipeline?: (typeof pipelines)[number] }) {
  const run = useRunStart({
    projectId: "p1",
    dimensions: [],
    pipeline,
    pipelineId: pipeline.id,
    endpoints,
  });
  return (
    <RunStartForm
      run={run}
      fields={null}
      part={part}
      projectId="p1"
      dimensions={[]}
      pipelines={[pipeline]}
      pipelineId={pipeline.id}
      setPipelineId={() => {}}
      endpoints={{ data: endpoints, isSuccess: true }}
    />
  );
}

function renderForm(pipeline = pipelines[0]!) {
  const posted: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        const body = JSON.parse(String(init.body)) as { dryRun?: boolean; sweep?: unknown };
        posted.push(body);
        const answer = body.dryRun
          ? { dryRun: true, videos: 3, estimate, estimateError: null }
          : body.sweep
            ? {
                sweep: { field: "inputMode", values: ["images", "video-frames"] },
                runs: [
                  { id: "r1", videos: 3 },
                  { id: "r2", videos: 3 },
                ],
                compareUrl: "/projects/p1/runs/compare?runs=r1,r2",
              }
            : { id: "r1", videos: 3 };
        return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
      }
      return new Response(JSON.stringify({ templates: [] }), { headers: { "content-type": "application/json" } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Form pipeline={pipeline} />
    </QueryClientProvider>,
  );
  return posted;
}

describe("the run form's cost before the run", () => {
  it("asks a dry run of the same request, budget included, and shows its estimate", async () => {
    const posted = renderForm();
    fireEvent.change(screen.getByTestId("run-budget-input"), { target: { value: "2.5" } });
    fireEvent.click(screen.getByTestId("run-estimate-button"));
    expect((await screen.findByTestId("run-estimate-cost")).textContent).toBe("$0.4000");
    expect(posted).toEqual([{ pipeline: "hallucination", endpointId: "e1", budgetUsd: 2.5, dryRun: true }]);
    expect(screen.getByTestId("run-estimate").textContent).toContain("30 calls, 54 images");
  });

  it("refuses a budget that is not a positive amount: no estimate, no start", async () => {
    const posted = renderForm();
    fireEvent.change(screen.getByTestId("run-budget-input"), { target: { value: "-3" } });
    expect((screen.getByTestId("run-estimate-button") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Start run" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId("run-budget-input"), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Start run" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ pipeline: "hallucination", endpointId: "e1" });
  });
});

describe("the run form's sweep", () => {
  it("starts a run per input mode in one request, estimates one run without it, and links to the comparison", async () => {
    const posted = renderForm();
    const select = screen.getByTestId("run-sweep") as HTMLSelectElement;
    // Hallucination's settings hold no frame count: only the input-mode sweeps are offered.
    expect([...select.options].map((o) => o.value)).toEqual(["", "modes", "modes-all"]);
    fireEvent.change(select, { target: { value: "modes" } });
    fireEvent.click(screen.getByTestId("run-estimate-button"));
    await screen.findByTestId("run-estimate-cost");
    fireEvent.click(screen.getByRole("button", { name: "Start run" }));
    const link = await screen.findByTestId("sweep-compare-link");
    expect(link.getAttribute("href")).toBe("/projects/p1/runs/compare?runs=r1,r2");
    expect(screen.getByTestId("sweep-started").textContent).toContain("Started 2 runs (images, video-frames)");
    expect(posted).toEqual([
      { pipeline: "hallucination", endpointId: "e1", dryRun: true },
      { pipeline: "hallucination", endpointId: "e1", sweep: { inputModes: ["images", "video-frames"] } },
    ]);
  });

  it("sends the input mode chosen (none for the endpoint's), in the dry run and the start alike, and none with a sweep", async () => {
    const posted = renderForm();
    const select = screen.getByTestId("run-input-mode") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["", "images", "video-frames", "video-file"]);
    expect(select.options[0]!.textContent).toBe("the endpoint's (images)");
    fireEvent.change(select, { target: { value: "video-frames" } });
    fireEvent.click(screen.getByTestId("run-estimate-button"));
    await screen.findByTestId("run-estimate-cost");
    fireEvent.click(screen.getByRole("button", { name: "Start run" }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted).toEqual([
      { pipeline: "hallucination", endpointId: "e1", inputMode: "video-frames", dryRun: true },
      { pipeline: "hallucination", endpointId: "e1", inputMode: "video-frames" },
    ]);
    fireEvent.change(screen.getByTestId("run-sweep"), { target: { value: "modes" } });
    expect(select.disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Start run" }));
    await waitFor(() => expect(posted).toHaveLength(3));
    expect(posted[2]).toEqual({
      pipeline: "hallucination",
      endpointId: "e1",
      sweep: { inputModes: ["images", "video-frames"] },
    });
  });
});

describe("the run form as it changes", () => {
  it("keeps the input mode through a frame-count sweep, shows an input-mode sweep's modes, and gives the mode back after", async () => {
    const posted = renderForm(captions);
    const mode = screen.getByTestId("run-input-mode") as HTMLSelectElement;
    fireEvent.change(mode, { target: { value: "video-file" } });
    fireEvent.change(screen.getByTestId("run-sweep"), { target: { value: "frames" } });
    expect(mode.value).toBe("video-file");
    expect(mode.disabled).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Start run" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      pipeline: "caption_style",
      endpointId: "e1",
      inputMode: "video-file",
      sweep: { frameCounts: [8, 16, 32, 64] },
    });
    fireEvent.change(screen.getByTestId("run-sweep"), { target: { value: "modes" } });
    expect(mode.disabled).toBe(true);
    expect(mode.selectedOptions[0]!.textContent).toBe("each run its own (images, video-frames)");
    fireEvent.change(screen.getByTestId("run-sweep"), { target: { value: "" } });
    expect(mode.value).toBe("video-file");
  });

  it("leaves out an estimate once the request changes (a budget alone keeps it)", async () => {
    renderForm();
    fireEvent.click(screen.getByTestId("run-estimate-button"));
    await screen.findByTestId("run-estimate-cost");
    fireEvent.change(screen.getByTestId("run-budget-input"), { target: { value: "3" } });
    expect(screen.queryByTestId("run-estimate-cost")).not.toBeNull();
    fireEvent.change(screen.getByTestId("run-input-mode"), { target: { value: "video-frames" } });
    expect(screen.queryByTestId("run-estimate-cost")).toBeNull();
  });

  it("estimates a samples run as its samples times one run's estimate, and says why a panel has none", async () => {
    const posted = renderForm();
    fireEvent.change(screen.getByTestId("run-judges"), { target: { value: "samples" } });
    fireEvent.change(screen.getByTestId("run-samples"), { target: { value: "3" } });
    const button = screen.getByTestId("run-estimate-button") as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect((await screen.findByTestId("run-estimate-cost")).textContent).toBe("$1.2000");
    expect(screen.getByTestId("run-estimate-samples").textContent).toBe("3 samples × one run's estimate:");
    expect(screen.getByTestId("run-estimate").textContent).toContain("90 calls, 162 images");
    // The dry run is the plain run's: the API estimates no ensemble.
    expect(posted).toEqual([{ pipeline: "hallucination", endpointId: "e1", dryRun: true }]);
    fireEvent.change(screen.getByTestId("run-judges"), { target: { value: "panel" } });
    expect(button.disabled).toBe(true);
    expect(screen.getByTestId("run-estimate-unavailable").textContent).toBe(
      "A panel's cost is its judges' runs: estimate each judge as one run.",
    );
  });
});
