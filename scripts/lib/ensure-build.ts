import path from "node:path";
import { buildIsCurrent, markBuildCurrent } from "../../lib/build/source-hash";
import type { Children } from "./children";

const root = path.resolve(".");

export function nextBin(): string {
  return path.join(root, "node_modules/next/dist/bin/next");
}

/** What `npm start` says before a build, which is silent for minutes at a time. */
export const BUILD_NOTICE =
  "building the app (first start, or the sources changed). This takes about 3–6 minutes on 2 cores, longer on a busy machine; later starts skip it until the sources change.";

/**
 * As ensureBuild, as one of `children` (so a Ctrl-C or a failure elsewhere stops it too), saying every minute
 * that it is still running. Throws when the build fails.
 */
export async function buildIfNeeded(children: Children, log: (line: string) => void): Promise<void> {
  if (buildIsCurrent(root)) return;
  log(BUILD_NOTICE);
  const started = Date.now();
  const elapsed = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
  };
  const ticker = setInterval(() => log(`still building… ${elapsed()}`), 60_000);
  try {
    const build = children.spawn("the build (next build)", process.execPath, [nextBin(), "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    const status = await new Promise<number | string>((resolve, reject) => {
      build.once("error", reject);
      build.once("exit", (code, signal) => resolve(code ?? signal ?? 1));
    });
    if (status !== 0) throw new Error(`the build failed (next build exited with ${status}); its output is above`);
  } finally {
    clearInterval(ticker);
  }
  markBuildCurrent(root);
  log(`build finished in ${elapsed()}`);
}
