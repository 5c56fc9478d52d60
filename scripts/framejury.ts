// The `framejury` command (package.json "bin", started by scripts/framejury.mjs):
//   framejury import --project ID [options] <folder…>
//   framejury extract-worker [--project ID] [--once]
import {
  EXTRACT_WORKER_USAGE,
  IMPORT_USAGE,
  runExtractWorkerCli,
  runImportCli,
} from "../lib/bulk-import/run-import-cli";
import { stopOnInterrupt } from "./lib/stop-on-interrupt";

const [command, ...args] = process.argv.slice(2);
const io = {
  stdout: (line: string) => process.stdout.write(`${line}\n`),
  stderr: process.stderr,
  signal: stopOnInterrupt(),
};
if (command === "import") process.exit(await runImportCli(args, io));
if (command === "extract-worker") process.exit(await runExtractWorkerCli(args, io));
const help = command === "help" || command === "--help";
process.stderr.write(
  `${command && !help ? `unknown command: ${command}\n\n` : ""}${IMPORT_USAGE}\n\n${EXTRACT_WORKER_USAGE}\n`,
);
process.exit(help ? 0 : 2);
