import { foundGeneratorsLine } from "../import/found-generators";
import type { ImportEvent, ImportSummary } from "./import-folder";
import type { FileOutcome } from "./import-outcome";

interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;

function rate(done: number, elapsedMs: number): string {
  return elapsedMs > 0 ? `${((1000 * done) / elapsedMs).toFixed(1)} videos/s` : "";
}

function outcomeLine(outcome: FileOutcome): string {
  const reason = outcome.reason ? ` (${outcome.reason.replace(/_/g, " ")})` : "";
  return `${outcome.status}${reason}: ${outcome.relativePath} — ${outcome.message}`;
}

/**
 * The import's progress on stderr. On a terminal: one bar redrawn in place, and a line for each file that
 * failed. Elsewhere (a log, CI): one plain line per file, with the count so far.
 */
export function progressReporter(stream: ProgressStream): (event: ImportEvent) => void {
  const started = performance.now();
  const counts = { imported: 0, duplicate: 0, failed: 0, skipped: 0, interrupted: 0 };
  let drawn = false;
  return (event) => {
    if (event.type === "found") {
      stream.write(`found ${event.videos} video files; ${foundGeneratorsLine(event.generators)}\n`);
      return;
    }
    if (event.type === "start") {
      stream.write(`${event.videos} videos to import\n`);
      return;
    }
    counts[event.outcome.status] += 1;
    const position = `${event.videosDone}/${event.videos}`;
    if (!stream.isTTY) {
      stream.write(`[${position}] ${outcomeLine(event.outcome)}\n`);
      return;
    }
    if (event.outcome.status === "failed") stream.write(`${drawn ? "\r\x1b[K" : ""}${outcomeLine(event.outcome)}\n`);
    const filled = event.videos > 0 ? Math.round((BAR_WIDTH * event.videosDone) / event.videos) : BAR_WIDTH;
    const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`;
    const line = `${bar} ${position} · ${counts.imported} imported · ${counts.duplicate} duplicates · ${counts.failed} failed · ${rate(event.videosDone, performance.now() - started)}`;
    stream.write(`\r\x1b[K${line.slice(0, Math.max(20, (stream.columns ?? 120) - 1))}`);
    drawn = true;
    if (event.videosDone === event.videos) {
      stream.write("\n");
      drawn = false;
    }
  };
}

/** The end-of-import summary: counts, then every file that failed with its reason, then other problems. */
export function formatSummary(summary: ImportSummary): string {
  const { counts } = summary;
  const lines = [
    `videos: ${counts.imported} imported${summary.resumed ? ` (${summary.resumed} finished from an earlier run)` : ""}, ${counts.duplicate} skipped as duplicates, ${counts.failed} failed, ${counts.skipped} skipped${counts.interrupted ? `, ${counts.interrupted} not finished (stopped; run again to resume)` : ""}`,
  ];
  const reasons = Object.entries(summary.failedByReason).map(
    ([reason, count]) => `${count} ${reason.replace(/_/g, " ")}`,
  );
  if (reasons.length) lines.push(`failed: ${reasons.join(", ")}`);
  if (summary.noPrompt)
    lines.push(
      `no prompt found for ${summary.noPrompt} ${summary.noPrompt === 1 ? "video" : "videos"} (stored without one)`,
    );
  const others = summary.files.filter((file) => file.kind === "prompt-list" || file.kind === "metadata");
  for (const file of others)
    lines.push(`${file.kind}: ${file.relativePath} — ${file.status === "failed" ? "failed: " : ""}${file.message}`);
  const failed = summary.files.filter((file) => file.kind === "video" && file.status === "failed");
  if (failed.length) {
    lines.push("failed files:");
    for (const file of failed)
      lines.push(`  ${file.relativePath}: ${file.reason?.replace(/_/g, " ")} — ${file.message}`);
  }
  const videos = counts.imported + counts.duplicate + counts.failed;
  lines.push(`took ${(summary.elapsedMs / 1000).toFixed(1)} s${videos ? ` (${rate(videos, summary.elapsedMs)})` : ""}`);
  return lines.join("\n");
}
