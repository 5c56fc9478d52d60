"use client";

import { useRef, useState } from "react";

interface Download {
  label: string;
  href: string;
  filename: string;
  /** How records end: CSV records may hold quoted line breaks, JSONL lines never do. */
  kind: "csv" | "jsonl" | "json";
}

interface Progress {
  label: string;
  bytes: number;
  rows: number;
  state: "running" | "done" | "cancelled" | "failed";
  message?: string;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Counts records as bytes arrive: newlines outside double quotes (CSV), or every newline (JSONL). */
function recordCounter(kind: Download["kind"]) {
  let inQuotes = false;
  return (chunk: Uint8Array): number => {
    let records = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (kind === "csv" && byte === 0x22) inQuotes = !inQuotes;
      else if (byte === 0x0a && !inQuotes) records++;
    }
    return records;
  };
}

/** A failed JSONL export ends with `{"error": …}` as its last line (README, exports). */
function endsWithFailureLine(chunks: Uint8Array[]): boolean {
  const tail = new TextDecoder().decode(chunks.at(-1) ?? new Uint8Array()).trimEnd();
  return tail.slice(tail.lastIndexOf("\n") + 1).startsWith('{"error":');
}

/**
 * Downloads through fetch so the page can show bytes and rows as they stream in, and cancel with an
 * AbortController; the finished file is handed to the browser as a download.
 */
export function ExportButtons({ downloads }: { downloads: Download[] }) {
  const [progress, setProgress] = useState<Progress | null>(null);
  const controller = useRef<AbortController | null>(null);

  async function start(download: Download) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    const count = recordCounter(download.kind);
    let bytes = 0;
    let rows = 0;
    setProgress({ label: download.label, bytes, rows, state: "running" });
    try {
      const response = await fetch(download.href, { signal: abort.signal, credentials: "same-origin" });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `The server answered ${response.status}.`);
      }
      const reader = response.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let last = 0;
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch {
          // The server aborts the response when the export fails part-way (README, exports).
          throw new Error("the download broke off before the end (the server could not finish the export); nothing was saved.");
        }
        const { done, value } = step;
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        bytes += value.length;
        rows += count(value);
        const now = performance.now();
        if (now - last > 100) {
          last = now;
          setProgress({ label: download.label, bytes, rows, state: "running" });
        }
      }
      if (download.kind === "jsonl" && endsWithFailureLine(chunks)) throw new Error("the server could not finish the export; nothing was saved.");
      const blob = new Blob(chunks, { type: response.headers.get("content-type") ?? "application/octet-stream" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = download.filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setProgress({ label: download.label, bytes, rows, state: "done" });
    } catch (error) {
      if (abort.signal.aborted) setProgress({ label: download.label, bytes, rows, state: "cancelled" });
      else setProgress({ label: download.label, bytes, rows, state: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  const running = progress?.state === "running";
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex flex-wrap gap-2">
        {downloads.map((d) => (
          <button key={d.label} type="button" disabled={running} onClick={() => void start(d)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 disabled:opacity-50">
            {d.label}
          </button>
        ))}
        {running && (
          <button type="button" onClick={() => controller.current?.abort()} className="rounded-md border border-red-300 bg-red-50 px-3 py-1.5 text-red-800">
            Cancel
          </button>
        )}
      </div>
      {progress && (
        <p role="status" aria-live="polite" data-testid="export-progress" data-state={progress.state} className={progress.state === "failed" ? "text-red-700" : "text-slate-600"}>
          {progress.label}: {formatBytes(progress.bytes)}, {progress.rows.toLocaleString("en")} {progress.rows === 1 ? "line" : "lines"}{" "}
          {progress.state === "running" ? "received…" : progress.state === "done" ? "— done, saved." : progress.state === "cancelled" ? "— cancelled." : `— failed: ${progress.message}`}
        </p>
      )}
    </div>
  );
}
