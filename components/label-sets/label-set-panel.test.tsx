// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TaskCatalogueProvider } from "@/components/tasks/task-catalogue-context";
import type { TaskFolderDeclarations } from "@/lib/task-modules/task-module";
import { LabelSetPanel } from "./label-set-panel";

/*
 * The label-set import form offers the own label file formats of the tasks of the page's catalogue (their declarations'
 * labelSetFormats, read when the form mounts) before the core's generic CSV/JSONL, starts on the one a task
 * declares the default, and takes a format's file label, accepted types and video matching from its declaration.
 */
beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify({ labelSets: [] }), {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(folders: readonly TaskFolderDeclarations[] = []) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <TaskCatalogueProvider folders={folders}>
        <LabelSetPanel projectId="p1" />
      </TaskCatalogueProvider>
    </QueryClientProvider>,
  );
}

const formatOptions = () =>
  [...(screen.getByTestId("label-set-format") as HTMLSelectElement).options].map((option) => [
    option.value,
    option.textContent,
  ]);

describe("the label-set import form reads the tasks' label file formats from the page's catalogue", () => {
  it("offers a format of a task of the catalogue, with its file label and accepted types, and not in a catalogue without it", () => {
    const toyFolder: TaskFolderDeclarations = {
      id: "toy-labels",
      projectId: "p1",
      tasks: [],
      labelSetFormats: [
        {
          id: "toy_sheet",
          label: "Toy sheet (.toy)",
          description: "a toy label file (.toy)",
          fileLabel: "Toy file",
          accept: ".toy",
          defaultName: "Toy labels",
        },
      ],
    };
    {
      renderPanel([toyFolder]);
      const options = formatOptions();
      expect(options).toContainEqual(["toy_sheet", "Toy sheet (.toy)"]);
      expect(options.at(-1)).toEqual(["generic", "Generic CSV / JSONL"]);
      expect(screen.getByTestId("label-set-panel").textContent).toContain("a toy label file (.toy)");
      // The form starts on the format a task declares the default (not the toy's), with that format's name.
      const start = (screen.getByTestId("label-set-format") as HTMLSelectElement).value;
      expect(start).not.toBe("toy_sheet");
      expect(start).not.toBe("generic");
      fireEvent.change(screen.getByTestId("label-set-format"), { target: { value: "toy_sheet" } });
      expect((screen.getByTestId("label-set-file") as HTMLInputElement).accept).toBe(".toy");
      expect(screen.getByText("Toy file")).toBeTruthy();
      // The toy declares no video matching: no "Match videos" control.
      expect(screen.queryByLabelText("Match videos")).toBeNull();
    }
    cleanup();
    renderPanel();
    expect(formatOptions().map(([value]) => value)).not.toContain("toy_sheet");
  });
});

describe("the label-set file picker (issue 38 §5.11: it was the browser's raw file control)", () => {
  it("is a button in the app's style with the chosen file's name, the input hidden inside its label", () => {
    renderPanel();
    const input = screen.getByTestId("label-set-file") as HTMLInputElement;
    expect(input.type).toBe("file");
    expect(input.className.split(/\s+/)).toContain("sr-only");
    const button = input.closest("label")!;
    expect(button.textContent).toBe("Choose file…");
    expect(button.className).toContain("rounded-md");
    expect(screen.getByTestId("label-set-file-name").textContent).toBe("no file chosen");
    const file = new File(["video,annotator,target,value\n"], "labels.csv", { type: "text/csv" });
    fireEvent.change(input, { target: { files: [file] } });
    expect(screen.getByTestId("label-set-file-name").textContent).toBe("labels.csv");
    expect(button.textContent).toBe("Choose another file…");
    // The input keeps its accessible name: the format's file label.
    expect(input.getAttribute("aria-label")).toBeTruthy();
  });
});
