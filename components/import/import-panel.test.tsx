// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ImportPanel } from "./import-panel";

// The tasks' import sections ask the server for their lists; no server here, so their requests wait.
beforeEach(() => vi.stubGlobal("fetch", () => new Promise<Response>(() => {})));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A file as a folder picker gives it: its path inside the chosen folder in webkitRelativePath. */
function picked(relativePath: string): File {
  const file = new File(["not read before Start"], relativePath.split("/").pop()!, { type: "video/mp4" });
  Object.defineProperty(file, "webkitRelativePath", { value: relativePath });
  return file;
}

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ImportPanel projectId="p1" />
    </QueryClientProvider>,
  );
}

function chooseFolder(paths: string[]) {
  const input = screen.getByTestId("folder-input") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: paths.map(picked), configurable: true });
  fireEvent.change(input);
}

describe("the Import page, before Start", () => {
  it("lists the generators read from samples/<model>/<Dimension>/… (the folder above the dimension), not the top folder", async () => {
    renderPanel();
    chooseFolder([
      "samples/kling-1.6/Camera_Motion/Garden, zoom in.-0.mp4",
      "samples/kling-1.6/Material/A cup.-1.mp4",
      "samples/wan2.1/Camera_Motion/Garden, zoom in.-0.mp4",
      "samples/VBench2_full_info.json",
    ]);
    await waitFor(() =>
      expect(screen.getByTestId("import-generators").textContent).toBe(
        "Generators found: kling-1.6 (2 videos), wan2.1 (1 video).",
      ),
    );
    fireEvent.change(screen.getByPlaceholderText(/from the folder above the dimension/), { target: { value: "Sora" } });
    expect(screen.getByTestId("import-generators").textContent).toBe(
      "Generators found: Sora (3 videos) (the model typed above).",
    );
  });

  it("names every prompt list it accepts in the drop zone's hint", () => {
    renderPanel();
    const hint = screen.getByTestId("drop-zone").textContent!;
    for (const name of [
      "VBench2_full_info.json",
      "meta_info/Dimension.json",
      "VBench2_full_text_info.json",
      "VBench_full_info.json",
      "prompts",
    ])
      expect(hint).toContain(name);
  });
});

describe("the Import page, a prompt list the project already has", () => {
  it("says the list is already in the project and was not stored again", async () => {
    const answer = {
      id: "l1",
      duplicateOf: "l1",
      dryRun: false,
      name: "VBench2_full_info.json",
      format: "vbench-info-json",
      entryCount: 1230,
      withAuxiliaryInfo: 0,
      matchedVideos: 0,
      videosUpdated: 0,
      unmatchedPrompts: { count: 0, byDimension: {} },
      unmatchedVideos: { count: 0, first: [] },
    };
    vi.stubGlobal("fetch", (url: string) =>
      String(url).includes("/prompt-lists")
        ? Promise.resolve(
            new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } }),
          )
        : new Promise<Response>(() => {}),
    );
    renderPanel();
    chooseFolder(["samples/VBench2_full_info.json"]);
    const start = screen.getByRole("button", { name: "Start import" }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await waitFor(() => expect(screen.getByText(/already in the project \(not stored again\)/)).toBeTruthy());
  });
});
