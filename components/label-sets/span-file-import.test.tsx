// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TaskCatalogueProvider } from "@/components/tasks/task-catalogue-context";
import { SpanFileImport } from "./span-file-import";

/*
 * The span import form: a dry run lists each row that cannot be imported with where it is and why, and keeps Import
 * off while any remain; an import the server refuses shows the rows it names.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PROBLEM = { row: 3, where: "line 3", message: "The span (frames 80–95) is outside the video (frames 0–89)." };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function renderForm() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <TaskCatalogueProvider folders={[]}>
        <SpanFileImport projectId="p1" />
      </TaskCatalogueProvider>
    </QueryClientProvider>,
  );
}

function pick(name = "spans.csv") {
  fireEvent.change(screen.getByTestId("span-import-name"), { target: { value: "People's spans" } });
  const file = new File(["video,label,start_frame,end_frame\n"], name, { type: "text/csv" });
  fireEvent.change(screen.getByTestId("span-import-file"), { target: { files: [file] } });
}

describe("the span import form", () => {
  it("sends the format, task and a dry run, then lists each bad row and keeps Import off", async () => {
    const plan = {
      name: "People's spans",
      sha256: "ab".repeat(32),
      rows: 2,
      spans: 1,
      matchedVideos: 1,
      labels: { "project:hand": 1 },
      annotators: {},
      problems: [PROBLEM],
      problemCount: 1,
    };
    const fetch = vi.fn(async () => json(200, { dryRun: true, plan, labelSet: null }));
    vi.stubGlobal("fetch", fetch);
    renderForm();
    // The tasks whose labels spans carry (the built-in hallucination task's categories), then the project's own list.
    const tasks = [...(screen.getByTestId("span-import-task") as HTMLSelectElement).options].map((o) => o.value);
    expect(tasks[0]).toBe("hallucination");
    expect(tasks.at(-1)).toBe("project");
    fireEvent.change(screen.getByTestId("span-import-task"), { target: { value: "project" } });
    // The formats it reads, by the ids the span export writes them with.
    const formats = [...(screen.getByTestId("span-import-format") as HTMLSelectElement).options].map((o) => o.value);
    expect(formats).toEqual(["csv", "jsonl", "label-studio"]);
    fireEvent.change(screen.getByTestId("span-import-format"), { target: { value: "label-studio" } });
    expect((screen.getByTestId("span-import-file") as HTMLInputElement).accept).toBe(".json");
    pick("ls.json");
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    await waitFor(() => expect(screen.getByTestId("span-import-plan")).toBeTruthy());
    const form = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as FormData;
    expect([form.get("format"), form.get("task"), form.get("dryRun"), form.get("name")]).toEqual([
      "label-studio",
      "project",
      "true",
      "People's spans",
    ]);
    expect(screen.getByTestId("span-import-plan").textContent).toContain("would create 1 spans");
    expect(screen.getByTestId("span-import-problem").textContent).toBe(`line 3${PROBLEM.message}`);
    expect((screen.getByRole("button", { name: "Import" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the rows a refused import names", async () => {
    const clean = {
      name: "x",
      sha256: "cd".repeat(32),
      rows: 1,
      spans: 1,
      matchedVideos: 1,
      labels: {},
      annotators: {},
      problems: [],
      problemCount: 0,
    };
    const refusal = {
      error: {
        code: "invalid_request",
        message: "1 row cannot be imported",
        details: { problems: [PROBLEM], problemCount: 1 },
      },
    };
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(200, { dryRun: true, plan: clean, labelSet: null }))
      .mockResolvedValueOnce(json(400, refusal));
    vi.stubGlobal("fetch", fetch);
    renderForm();
    pick();
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    await waitFor(() =>
      expect((screen.getByRole("button", { name: "Import" }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(screen.getByTestId("span-import-problems")).toBeTruthy());
    expect(screen.getByTestId("span-import-message").textContent).toBe("1 row cannot be imported");
    expect(screen.getByTestId("span-import-problem").textContent).toContain("outside the video");
  });

  it("says how the dry run's spans found their videos: by id, by path, by file name", async () => {
    const plan = {
      name: "From another project",
      sha256: "ef".repeat(32),
      rows: 6,
      spans: 6,
      matchedVideos: 3,
      labels: { "project:hand": 6 },
      annotators: {},
      matchedBy: { path: 4, "file name": 1, id: 1 },
      problems: [],
      problemCount: 0,
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(200, { dryRun: true, plan, labelSet: null })),
    );
    renderForm();
    pick();
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    await waitFor(() => expect(screen.getByTestId("span-import-matched-by")).toBeTruthy());
    const counts = screen.getAllByTestId("span-import-matched-by-count").map((c) => c.textContent);
    expect(counts).toEqual(["by id: 1", "by path: 4", "by file name: 1"]);
    // Spans found by path or file name: the file's ids are not this project's videos.
    expect(screen.getByTestId("span-import-matched-by").textContent).toContain("not videos of this project");
  });

  it("says every span found its video by id when the file's ids are this project's", async () => {
    const plan = {
      name: "Round trip",
      sha256: "aa".repeat(32),
      rows: 2,
      spans: 2,
      matchedVideos: 1,
      labels: { "project:hand": 2 },
      annotators: {},
      matchedBy: { id: 2 },
      problems: [],
      problemCount: 0,
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(200, { dryRun: true, plan, labelSet: null })),
    );
    renderForm();
    pick();
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    await waitFor(() => expect(screen.getByTestId("span-import-matched-by")).toBeTruthy());
    expect(screen.getAllByTestId("span-import-matched-by-count").map((c) => c.textContent)).toEqual([
      "by id: 2",
      "by path: 0",
      "by file name: 0",
    ]);
    expect(screen.getByTestId("span-import-matched-by").textContent).not.toContain("not videos of this project");
  });
});
