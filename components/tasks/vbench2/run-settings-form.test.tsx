// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunSettingsPart } from "../run-settings-form";
import { Vbench2RunSettingsForm } from "./run-settings-form";

/*
 * The run form of a VBench-2.0 run: a run without VBench's 64 uniform frames failed with a 400 listing ten long
 * names, and the form neither said how many videos lacked the set nor linked to its extraction.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderForm(readiness: { videos: number; lacking: number }) {
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify({ ...readiness, pendingQuery: "uniform=64&videos=all" }), {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
  );
  vi.stubGlobal("fetch", fetch);
  const parts: RunSettingsPart[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Vbench2RunSettingsForm
        projectId="p1"
        pipeline="vbench2"
        defaults={{}}
        state={undefined}
        setState={() => {}}
        endpoints={[]}
      >
        {({ fields, part }) => {
          parts.push(part);
          return (
            <form>
              {fields}
              {part.notice}
            </form>
          );
        }}
      </Vbench2RunSettingsForm>
    </QueryClientProvider>,
  );
  return { fetch, parts };
}

describe("the VBench-2.0 run form", () => {
  it("says how many videos lack the 64 uniform frames and links to their extraction", async () => {
    const { fetch, parts } = renderForm({ videos: 10, lacking: 3 });
    const notice = await screen.findByTestId("run-vbench2-frames");
    expect(notice.textContent).toBe(
      "3 of 10 videos lack VBench's 64 uniform frames: a run leaves them out. Extract 64 uniform frames",
    );
    expect(screen.getByTestId("run-vbench2-extract").getAttribute("href")).toBe(
      "/projects/p1/pending?uniform=64&videos=all",
    );
    expect(fetch).toHaveBeenCalledWith("/api/v1/projects/p1/vbench2-frames", expect.anything());
    expect(parts.at(-1)!.ready).toBe(true);
  });

  it("cannot start when no video has them", async () => {
    const { parts } = renderForm({ videos: 4, lacking: 4 });
    expect((await screen.findByTestId("run-vbench2-frames")).textContent).toBe(
      "None of the 4 videos has VBench's 64 uniform frames: a run needs them. Extract 64 uniform frames",
    );
    expect(parts.at(-1)!.ready).toBe(false);
  });

  it("says nothing is missing when every video has them", async () => {
    renderForm({ videos: 4, lacking: 0 });
    expect((await screen.findByTestId("run-vbench2-frames")).textContent).toBe(
      "Every video has VBench's 64 uniform frames.",
    );
    expect(screen.queryByTestId("run-vbench2-extract")).toBeNull();
  });
});
