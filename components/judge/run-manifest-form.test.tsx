// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunManifestForm } from "./run-manifest-form";

/* A run could be started from a manifest only through the API. */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const manifest = {
  format: "framejury-run-manifest",
  version: 1,
  task: { pipeline: "hallucination" },
  settings: {},
  promptVersions: [],
  endpoint: { id: "e1", name: "vLLM", baseUrl: "http://gpu-1:8000/v1" },
  input: { mode: "video-file" },
  videos: [{ id: "v1" }, { id: "v2" }, { id: "v3" }],
};

function answering() {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { dryRun?: boolean };
      bodies.push(body);
      return Response.json(
        body.dryRun
          ? {
              dryRun: true,
              videos: 3,
              withoutFramesCount: 1,
              beingDeletedCount: 0,
              estimate: null,
              estimateError: null,
            }
          : { id: "run9", videos: 3 },
        { status: body.dryRun ? 200 : 201 },
      );
    }),
  );
  return bodies;
}

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RunManifestForm projectId="p1" />
    </QueryClientProvider>,
  );
}

describe("Start from a manifest", () => {
  it("shows what a pasted manifest would run, dry runs it, then starts it", async () => {
    const bodies = answering();
    renderForm();
    expect((screen.getByTestId("run-manifest-dry-run") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId("run-manifest-text"), { target: { value: JSON.stringify(manifest) } });
    const summary = screen.getByTestId("run-manifest-summary").textContent;
    expect(summary).toContain("EndpointvLLM (http://gpu-1:8000/v1)");
    expect(summary).toContain("Input modevideo-file");
    expect(summary).toContain("Videos3");
    // Start waits for the dry run.
    expect((screen.getByTestId("run-manifest-start") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("run-manifest-dry-run"));
    await waitFor(() =>
      expect(screen.getByTestId("run-manifest-dry-run-result").textContent).toBe(
        "Would judge 3 videos; 1 left out for want of their frame set.",
      ),
    );
    fireEvent.click(screen.getByTestId("run-manifest-start"));
    await waitFor(() =>
      expect(screen.getByTestId("run-manifest-started").textContent).toContain("Started on 3 videos"),
    );
    expect(screen.getByTestId("run-manifest-started").querySelector("a")!.getAttribute("href")).toBe(
      "/projects/p1/runs/run9",
    );
    expect(bodies).toEqual([{ manifest, dryRun: true }, { manifest }]);
  });

  it("reads an uploaded manifest file, and names the problem of text that is not one", async () => {
    answering();
    renderForm();
    fireEvent.change(screen.getByTestId("run-manifest-text"), { target: { value: "{not json" } });
    expect(screen.getByTestId("run-manifest-problem").textContent).toMatch(/^Not JSON/);
    const file = new File([JSON.stringify(manifest)], "run.json", { type: "application/json" });
    fireEvent.change(screen.getByTestId("run-manifest-file"), { target: { files: [file] } });
    await waitFor(() => expect(screen.getByTestId("run-manifest-summary").textContent).toContain("Videos3"));
    expect(screen.queryByTestId("run-manifest-problem")).toBeNull();
  });
});
