// `npm run import -- --project ID [options] <folder…>`: the headless bulk import (lib/bulk-import). The
// summary goes to stdout, progress to stderr. Ctrl-C stops taking files; a second Ctrl-C exits at once.
import { runImportCli } from "../lib/bulk-import/run-import-cli";
import { stopOnInterrupt } from "./lib/stop-on-interrupt";

process.exit(
  await runImportCli(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: process.stderr,
    signal: stopOnInterrupt(),
  }),
);
