// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VideoWorkspace } from "./video-workspace";

/*
 * The video page's run header reads a run's settings through the task of its pipeline (TaskViews.runSettings):
 * a hallucination run's aggregation and verdict rule in words; a run whose task words no settings gets no line,
 * never another task's rule. A reviewer blind on the video sees no judge outputs.
 */
vi.mock("next/navigation", () => ({
  usePathname: () => "/projects/p1/videos/v1",
  useRouter: () => ({ push: vi.fn() }),
}));

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

function answer(
  pipeline: string,
  settings: unknown,
  scores: { blind: boolean; steps: unknown[] } = { blind: false, steps: [] },
) {
  const run = {
    id: "r1",
    pipeline,
    status: "completed",
    simulated: false,
    createdAt: "2026-11-01T10:00:00.000Z",
    settings,
    endpointSnapshot: { name: "Judge", model: "gpt-x" },
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      if (input.startsWith("/api/v1/videos/v1/scores"))
        return json({ videoId: "v1", run, frameSetId: "fs1", status: "done", summary: null, ...scores });
      if (input.startsWith("/api/v1/videos/v1/reviews")) return json({ judgments: [] });
      return json({});
    }),
  );
}

function renderWorkspace() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <VideoWorkspace
        videoId="v1"
        videoUrl="/media/v1.mp4"
        fps={null}
        frameSets={[{ id: "fs1", frames: [] }]}
        runs={[
          {
            id: "r1",
            label: "Hallucination · gpt-x @ Judge · 1 Nov 2026 10:00:00 · temperature 0",
            createdAt: "2026-11-01T10:00:00.000Z",
            runStatus: "completed",
            simulated: false,
            endpoint: { name: "Judge", model: "gpt-x" },
          },
        ]}
        runId={null}
        currentUserId="u1"
        canReview={false}
        aside={null}
      />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the video page's run settings", () => {
  it("words a hallucination run's score settings as its task's view does", async () => {
    answer("hallucination", { aggregation: "mean", verdict: { on: "overall", threshold: 70 } });
    renderWorkspace();
    const line = await screen.findByTestId("run-settings");
    expect(line.textContent).toBe(
      "Score settings: aggregation mean; verdict: hallucination when overall < 70. Prompt versions are listed under the outputs.",
    );
  });

  it("shows no settings line for a run whose task gives no settings view", async () => {
    answer("toy_pipeline", { aggregation: "mean" });
    renderWorkspace();
    await screen.findByTestId("run-provenance");
    expect(screen.getByTestId("run-provenance").textContent).toContain("run id r1");
    expect(screen.queryByTestId("run-settings")).toBeNull();
  });
});

describe("the video page's run selector", () => {
  it("lists each run by its picker label (task, judge, start to the second, what differs), then its status", async () => {
    answer("hallucination", { aggregation: "mean" });
    renderWorkspace();
    const option = (await screen.findByTestId("run-selector")).querySelector("option")!;
    expect(option.textContent).toBe(
      "Hallucination · gpt-x @ Judge · 1 Nov 2026 10:00:00 · temperature 0 · completed · latest",
    );
  });
});

describe("the video page's judge outputs", () => {
  const step = (output: unknown) => ({
    id: "s1",
    stepId: "dynamic_attribute_q1",
    status: "done",
    error: null,
    output,
    scopeIndex: null,
    scores: [],
  });

  it("shows a VBench-2.0 run's answers as the model gave them", async () => {
    answer("vbench2", {}, { blind: false, steps: [step({ text: "Yes." })] });
    renderWorkspace();
    expect((await screen.findByTestId("vbench2-answers")).textContent).toContain("Yes.");
  });

  it("shows no outputs to a reviewer still blind on the video (they come back redacted), only the blind notice", async () => {
    answer("vbench2", {}, { blind: true, steps: [step(null)] });
    renderWorkspace();
    await screen.findByTestId("blind-notice");
    expect(screen.queryByTestId("vbench2-answers")).toBeNull();
    expect(screen.queryByText("(empty answer)")).toBeNull();
  });
});
