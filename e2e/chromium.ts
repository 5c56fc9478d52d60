import fs from "node:fs";

/** Debian's Chromium, which every browser test and benchmark drives (no browser download). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium keeps its shared memory in /dev/shm, which a container often makes 64 MB: too small, and it crashes. Then
 * it must use /tmp instead, which cost the page crawl ~5% more time; with room in /dev/shm it keeps the default.
 */
function sharedMemoryIsSmall(): boolean {
  try {
    const stats = fs.statfsSync("/dev/shm");
    return stats.bavail * stats.bsize < 1024 ** 3;
  } catch {
    return true;
  }
}

/** Chromium as root in a container, on a machine without internet. */
export const CHROMIUM_ARGS = [
  ...[
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
  ...(sharedMemoryIsSmall() ? ["--disable-dev-shm-usage"] : []),
];
