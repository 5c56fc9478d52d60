import type { PickedKind } from "./classify-file";

/**
 * Where each file of a browser import stands (components/import): `stored` is a video kept without frames yet
 * (the import was cancelled during extraction), `duplicate` a video the project already had.
 */
export type ImportItemState =
  | "queued"
  | "probing"
  | "hashing"
  | "uploading"
  | "extracting"
  | "done"
  | "stored"
  | "duplicate"
  | "error"
  | "cancelled"
  | "skipped";

/** The states a file ends in. */
export const FINISHED_IMPORT_STATES: readonly ImportItemState[] = [
  "done",
  "stored",
  "duplicate",
  "error",
  "cancelled",
  "skipped",
];

/**
 * What an import came to, in counts of files. `imported`: files that are now in the project (videos with
 * their frames or stored waiting for frames, prompt lists and metadata files read); `skipped`: files left out
 * on purpose (not a video, list or metadata file; a video the project already had); `failed`: files that
 * went wrong; `cancelled`: files a cancel left with nothing stored. `tone` colours the progress bar:
 * `failure` when videos were offered and none is in the project now, `warning` when some file was skipped,
 * failed or cancelled, `success` otherwise.
 */
export interface ImportSummary {
  files: number;
  imported: number;
  videosImported: number;
  /** Of the imported videos, those stored without frames yet. */
  waitingForFrames: number;
  skipped: number;
  duplicates: number;
  failed: number;
  cancelled: number;
  /** Files not yet finished (queued or under way). */
  unfinished: number;
  tone: "success" | "warning" | "failure";
}

export function importSummary(items: readonly { kind: PickedKind; state: ImportItemState }[]): ImportSummary {
  const count = (test: (item: { kind: PickedKind; state: ImportItemState }) => boolean) => items.filter(test).length;
  const videos = count((i) => i.kind === "video");
  const videosImported = count((i) => i.kind === "video" && (i.state === "done" || i.state === "stored"));
  const summary = {
    files: items.length,
    imported: count((i) => i.state === "done" || i.state === "stored"),
    videosImported,
    waitingForFrames: count((i) => i.state === "stored"),
    skipped: count((i) => i.state === "skipped" || i.state === "duplicate"),
    duplicates: count((i) => i.state === "duplicate"),
    failed: count((i) => i.state === "error"),
    cancelled: count((i) => i.state === "cancelled"),
    unfinished: count((i) => !FINISHED_IMPORT_STATES.includes(i.state)),
  };
  const tone: ImportSummary["tone"] =
    (videos > 0 && videosImported === 0) || summary.imported === 0
      ? "failure"
      : summary.skipped + summary.failed + summary.cancelled > 0
        ? "warning"
        : "success";
  return { ...summary, tone };
}

/** "2 imported, 1 skipped (1 already in the project), 1 failed": the finished import in one line. */
export function importSummaryLine(summary: ImportSummary): string {
  const parts = [
    `${summary.imported} imported${summary.waitingForFrames ? ` (${summary.waitingForFrames} waiting for frames)` : ""}`,
    `${summary.skipped} skipped${summary.duplicates ? ` (${summary.duplicates} already in the project)` : ""}`,
    `${summary.failed} failed`,
  ];
  if (summary.cancelled) parts.push(`${summary.cancelled} cancelled`);
  return parts.join(", ");
}

/** A prompt quoted in an import's message: its first `max` characters, and an ellipsis when it has more. */
export function promptExcerpt(prompt: string, max = 80): string {
  const characters = Array.from(prompt);
  return characters.length > max ? `${characters.slice(0, max).join("")}…` : prompt;
}
