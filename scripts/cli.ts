// Admin CLI: `npm run cli -- <command> [options]`. Works against DATABASE_URL or DATA_DIR when given;
// otherwise against the running app's database, whichever command started it (`npm start`, `npm run demo`),
// or the embedded server under .data when no app runs. It says on stderr which database it used.
// Results go to stdout alone (an id, a key); everything else to stderr, so scripts can capture them.
import { runCli } from "../lib/cli/run-cli";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";

// A secret still set to the deployment files' placeholder (CHANGEME) stops it first, naming the variable.
refuseToStartWithPlaceholderSecrets("[cli]");

process.exit(
  await runCli(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s + "\n"),
    stderr: (s) => process.stderr.write(s + "\n"),
  }),
);
