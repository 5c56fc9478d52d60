// `npm run extract-worker -- [--project ID] [--once]`: native-ffmpeg frame extraction for every video
// waiting for frames (lib/bulk-import/extract-worker.ts). Ctrl-C stops after the videos under way.
import { runExtractWorkerCli } from "../lib/bulk-import/run-import-cli";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { stopOnInterrupt } from "./lib/stop-on-interrupt";

// A secret still set to the deployment files' placeholder (CHANGEME) stops it first, naming the variable.
refuseToStartWithPlaceholderSecrets("[extract-worker]");
process.exit(
  await runExtractWorkerCli(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: process.stderr,
    signal: stopOnInterrupt(),
  }),
);
