// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MetadataPlan } from "@/lib/videos/apply-metadata";
import type { ImportItemState } from "@/lib/import/import-summary";
import type { PickedKind } from "@/lib/import/classify-file";
import { ExistingVideosMetadata } from "./existing-videos-metadata";
import { ImportProgress } from "./import-progress";

/*
 * Issue 38 §5.11, the Import page: an import that stored nothing ended on a full bar in the running colour with
 * no summary; and after a fresh upload a "Metadata for videos already in the project" box showed with nothing in it.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const item = (kind: PickedKind, state: ImportItemState, progress = 1) => ({ kind, state, progress });
const bar = () => screen.getByRole("progressbar");
const fill = () => bar().firstElementChild as HTMLElement;

describe("the import's progress bar and summary", () => {
  it("turn red and say nothing was imported when no video came in", () => {
    render(
      <ImportProgress
        items={[item("video", "error"), item("video", "duplicate"), item("other", "skipped")]}
        running={false}
        finished
      />,
    );
    expect(bar().getAttribute("data-tone")).toBe("failure");
    expect(fill().className).toContain("bg-red-600");
    expect(fill().className).not.toContain("bg-indigo-600");
    const finished = screen.getByTestId("import-finished");
    expect(finished.textContent).toBe(
      "Import finished: nothing was imported. 0 imported, 2 skipped (1 already in the project), 1 failed.",
    );
    expect(bar().getAttribute("aria-valuetext")).toBe(
      "finished: 0 imported, 2 skipped (1 already in the project), 1 failed",
    );
  });

  it("count imported, skipped and failed files once an import finished, amber when some failed, green when none did", () => {
    render(
      <ImportProgress
        items={[item("prompt-list", "done"), item("video", "done"), item("video", "error")]}
        running={false}
        finished
      />,
    );
    expect(screen.getByTestId("import-finished").textContent).toBe("Import finished. 2 imported, 0 skipped, 1 failed.");
    expect(fill().className).toContain("bg-amber-500");
    cleanup();
    render(<ImportProgress items={[item("video", "done"), item("video", "done")]} running={false} finished />);
    expect(screen.getByTestId("import-finished").getAttribute("data-tone")).toBe("success");
    expect(fill().className).toContain("bg-emerald-600");
  });

  it("stay in the running colour with no summary while the import runs", () => {
    render(
      <ImportProgress items={[item("video", "done"), item("video", "uploading", 0.5)]} running finished={false} />,
    );
    expect(bar().getAttribute("data-tone")).toBe("running");
    expect(bar().getAttribute("aria-valuenow")).toBe("75");
    expect(fill().className).toContain("bg-indigo-600");
    expect(screen.queryByTestId("import-finished")).toBeNull();
  });
});

function answerPlan(plan: Partial<MetadataPlan>) {
  const full: MetadataPlan = {
    dryRun: true,
    matchedVideos: 2,
    changes: [],
    overwrites: 0,
    unmatchedRows: [],
    unmatchedRowCount: 0,
    applied: false,
    ...plan,
  };
  const fetch = vi.fn(
    async () => new Response(JSON.stringify(full), { status: 200, headers: { "content-type": "application/json" } }),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

describe("the box of metadata for videos already in the project", () => {
  it("does not show after a fresh upload, when the files change no video", async () => {
    const fetch = answerPlan({ changes: [] });
    const { container } = render(
      <ExistingVideosMetadata projectId="p1" rows={[{ path: "Sora/a-0.mp4", extra: {} }]} promptLists={false} />,
    );
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId("existing-videos-metadata")).toBeNull();
    expect(container.textContent).toBe("");
  });

  it("does not show when the files change only videos this import stored", async () => {
    const fetch = answerPlan({
      changes: [
        {
          videoId: "new",
          relativePath: "Sora/a-0.mp4",
          fields: [{ field: "seed", before: null, after: 3, overwrite: false }],
        },
      ],
    });
    render(
      <ExistingVideosMetadata
        projectId="p1"
        rows={[{ path: "Sora/a-0.mp4", extra: {} }]}
        promptLists={false}
        importedVideoIds={new Set(["new"])}
      />,
    );
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId("existing-videos-metadata")).toBeNull();
  });

  it("shows what the files would change in videos that were there before", async () => {
    answerPlan({
      changes: [
        {
          videoId: "v1",
          relativePath: "Sora/11.mp4",
          fields: [{ field: "prompt", before: null, after: "A ball", overwrite: false }],
        },
      ],
    });
    render(<ExistingVideosMetadata projectId="p1" rows={[{ path: "Sora/11.mp4", extra: {} }]} promptLists={false} />);
    const box = await screen.findByTestId("existing-videos-metadata");
    expect(box.textContent).toContain("Metadata for videos already in the project");
    expect(screen.getByTestId("metadata-plan-summary").textContent).toContain("1 video would change");
  });
});
