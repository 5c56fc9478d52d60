// `npm run bench:review`: the review screen's Enter → next item time and lost keys, in Chromium against a
// production build (e2e/bench/review.bench.ts, through the e2e global setup). Numbers only, no assertions.
//   npm run bench:review [-- --items 50 --keys-per-second 10]
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { items: { type: "string", default: "50" }, "keys-per-second": { type: "string", default: "10" } },
});
const result = spawnSync(
  process.execPath,
  ["node_modules/@playwright/test/cli.js", "test", "--config", "e2e/bench/playwright.config.ts"],
  {
    stdio: "inherit",
    env: { ...process.env, BENCH_ITEMS: values.items, BENCH_KEYS_PER_SECOND: values["keys-per-second"] },
  },
);
process.exit(result.status ?? 1);
