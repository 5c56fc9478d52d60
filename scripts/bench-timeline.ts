// `npm run bench:timeline`: the span timeline on a 10-minute 60 fps clip (36,000 frames, made with the native ffmpeg,
// each frame's index drawn into it) with 1,000 spans, in Chromium against a production build (e2e/bench/
// timeline.bench.ts, through the e2e global setup): seek latency to a presented frame, scrubbing frame rate, and keys
// typed while span saves are in flight. Prints the figures with the cores and the load average; no assertions.
//   npm run bench:timeline [-- --seconds 600 --fps 60 --spans 1000 --seeks 300 --save-delay-ms 800]
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "600" },
    fps: { type: "string", default: "60" },
    spans: { type: "string", default: "1000" },
    seeks: { type: "string", default: "300" },
    "ruler-clicks": { type: "string", default: "100" },
    "scrub-seconds": { type: "string", default: "5" },
    marks: { type: "string", default: "30" },
    "save-delay-ms": { type: "string", default: "800" },
    "keys-per-second": { type: "string", default: "20" },
  },
});
const result = spawnSync(
  process.execPath,
  ["node_modules/@playwright/test/cli.js", "test", "--config", "e2e/bench/timeline.config.ts"],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      BENCH_SECONDS: values.seconds,
      BENCH_FPS: values.fps,
      BENCH_SPANS: values.spans,
      BENCH_SEEKS: values.seeks,
      BENCH_RULER_CLICKS: values["ruler-clicks"],
      BENCH_SCRUB_SECONDS: values["scrub-seconds"],
      BENCH_MARKS: values.marks,
      BENCH_SAVE_DELAY_MS: values["save-delay-ms"],
      BENCH_KEYS_PER_SECOND: values["keys-per-second"],
    },
  },
);
process.exit(result.status ?? 1);
