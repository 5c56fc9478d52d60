// Admin CLI: `npm run cli -- <command> [options]`. Works against DATABASE_URL, or the embedded server
// (joining it when the app is running, starting it just for the command otherwise).
// Results go to stdout alone (an id, a key); everything else to stderr, so scripts can capture them.
import { runCli } from "../lib/cli/run-cli";

process.exit(await runCli(process.argv.slice(2), { stdout: (s) => process.stdout.write(s + "\n"), stderr: (s) => process.stderr.write(s + "\n") }));
