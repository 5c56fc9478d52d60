import { spawnSync } from "node:child_process";
import path from "node:path";
import { buildIsCurrent, markBuildCurrent } from "../../lib/build/source-hash";

const root = path.resolve(".");

export function nextBin(): string {
  return path.join(root, "node_modules/next/dist/bin/next");
}

/** Runs `next build` when .next is missing or older than the sources; exits the process if it fails. */
export function ensureBuild(log: (line: string) => void): void {
  if (buildIsCurrent(root)) return;
  log("building the app (first start, or the sources changed)…");
  const build = spawnSync(process.execPath, [nextBin(), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) {
    console.error("[framejury] the build failed; see above.");
    process.exit(build.status ?? 1);
  }
  markBuildCurrent(root);
}
