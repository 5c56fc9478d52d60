import v8 from "node:v8";

/**
 * V8 flags of the web process (scripts/start.ts passes them to `next start`, and every streamed export sets them on
 * the process serving it: useExportHeapFlags).
 *
 * `--heap-growing-percent=30`: after each full collection V8 lets the old space grow to the live heap × a factor
 * it picks between 1.1 and 4 (4 when collecting looks cheap, as it does on a server with GiBs of memory). A
 * streamed export reads keyset-paginated batches and holds one (run, video)'s rows at a time, but a batch's query
 * results live across database round trips, so some of every batch reaches the old space as garbage; at a factor
 * of 4 that garbage piled up to ~200–280 MiB before V8 collected it, on any project big enough. At 1.3 (V8's own
 * "conservative" factor) a full collection comes sooner, and an export's extra peak RSS stays flat and small
 * (docs/benchmarks.md: bench:dashboard). The cost is more frequent full collections, a few ms each.
 */
export const WEB_PROCESS_V8_FLAGS = ["--heap-growing-percent=30"] as const;

let exportHeapFlagsSet = false;

/**
 * Sets WEB_PROCESS_V8_FLAGS on this process, once. Every streamed export calls it before its first row, so whichever
 * process serves one (`npm start`, a bare `next start` behind another supervisor, a worker, a script) keeps its
 * extra memory flat, not only the one started with the flags. V8 reads the growing factor at each collection, so
 * setting it at run time takes effect (bench:dashboard measures an export in a process started without it).
 */
export function useExportHeapFlags(): void {
  if (exportHeapFlagsSet) return;
  exportHeapFlagsSet = true;
  for (const flag of WEB_PROCESS_V8_FLAGS) v8.setFlagsFromString(flag);
}
