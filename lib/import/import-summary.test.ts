import { describe, expect, it } from "vitest";
import { importSummary, importSummaryLine, promptExcerpt, type ImportItemState } from "./import-summary";
import type { PickedKind } from "./classify-file";

const item = (kind: PickedKind, state: ImportItemState) => ({ kind, state });

describe("what an import came to (issue 38 §5.11)", () => {
  it("counts imported, skipped and failed files, and says so in one line", () => {
    const summary = importSummary([
      item("prompt-list", "done"),
      item("video", "done"),
      item("video", "stored"),
      item("video", "duplicate"),
      item("other", "skipped"),
      item("video", "error"),
    ]);
    expect(summary).toMatchObject({
      files: 6,
      imported: 3,
      videosImported: 2,
      waitingForFrames: 1,
      skipped: 2,
      duplicates: 1,
      failed: 1,
      cancelled: 0,
      unfinished: 0,
      tone: "warning",
    });
    expect(importSummaryLine(summary)).toBe(
      "3 imported (1 waiting for frames), 2 skipped (1 already in the project), 1 failed",
    );
  });

  it("is a failure when videos were offered and none came in, even though a prompt list was read", () => {
    const failed = importSummary([item("prompt-list", "done"), item("video", "error"), item("video", "duplicate")]);
    expect(failed.tone).toBe("failure");
    expect(importSummary([item("video", "error")])).toMatchObject({ imported: 0, failed: 1, tone: "failure" });
    expect(importSummary([item("other", "skipped")])).toMatchObject({ imported: 0, skipped: 1, tone: "failure" });
  });

  it("is a success when every file came in, and counts cancelled and unfinished files apart", () => {
    expect(importSummary([item("video", "done"), item("metadata", "done")]).tone).toBe("success");
    const cancelled = importSummary([
      item("video", "done"),
      item("video", "cancelled"),
      item("video", "uploading"),
      item("video", "queued"),
    ]);
    expect(cancelled).toMatchObject({ imported: 1, cancelled: 1, unfinished: 2, tone: "warning" });
    expect(importSummaryLine(cancelled)).toBe("1 imported, 0 skipped, 0 failed, 1 cancelled");
  });
});

describe("a prompt quoted in an import's message", () => {
  it("is cut at 80 characters with an ellipsis, whole when shorter, and never splits a character in two", () => {
    const long = `${"A wooden toy floats ".repeat(4)}on the water.`;
    expect(promptExcerpt(long)).toBe(`${long.slice(0, 80)}…`);
    expect(promptExcerpt("A cup falls.")).toBe("A cup falls.");
    expect(promptExcerpt("x".repeat(80))).toBe("x".repeat(80));
    expect(promptExcerpt(`${"x".repeat(79)}🐱🐱`)).toBe(`${"x".repeat(79)}🐱…`);
  });
});
