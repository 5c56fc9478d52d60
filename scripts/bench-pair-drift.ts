// `npm run bench:pair-drift`: the pair review's two players playing a 1080p pair (two of ../shared/samples scaled
// and looped by the native ffmpeg) in Chromium against a production build (e2e/bench/pair-drift.bench.ts, through the
// e2e global setup). Prints the drift between the players, p95 and max in frames, with the cores and the load average;
// no assertions.
//   npm run bench:pair-drift [-- --seconds 60]
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" } } });
const result = spawnSync(
  process.execPath,
  ["node_modules/@playwright/test/cli.js", "test", "--config", "e2e/bench/pair-drift.config.ts"],
  { stdio: "inherit", env: { ...process.env, BENCH_SECONDS: values.seconds } },
);
process.exit(result.status ?? 1);
