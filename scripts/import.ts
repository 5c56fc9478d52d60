// `npm run import -- --project ID [options] <folder…>`: the headless bulk import (lib/bulk-import). The
// summary goes to stdout, progress to stderr. Ctrl-C stops taking files; a second Ctrl-C exits at once.
import { runImportCli } from "../lib/bulk-import/run-import-cli";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { stopOnInterrupt } from "./lib/stop-on-interrupt";

// A secret still set to the deployment files' placeholder (CHANGEME), FRAMEJURY_API_KEY too, stops it first, naming the
// variable.
refuseToStartWithPlaceholderSecrets("[import]");

process.exit(
  await runImportCli(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: process.stderr,
    signal: stopOnInterrupt(),
  }),
);
