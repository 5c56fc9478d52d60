// Inter-rater agreement of a ratings CSV: `npm run agreement -- --input ratings.csv [--level ordinal]`.
// Only I/O lives here; the CSV parsing and the statistics are lib/stats/agreement-report.ts.
// Exit codes: 0 report printed, 2 bad arguments or a bad file (reason on stderr, naming the line).
import fs from "node:fs";
import {
  AGREEMENT_USAGE,
  agreementReportFromCsv,
  parseAgreementArgs,
  type AgreementCommand,
} from "../lib/stats/agreement-report";
import { StatsInputError } from "../lib/stats/input-error";

function fail(message: string): never {
  process.stderr.write(`agreement: ${message}\n`);
  process.exit(2);
}

let command: AgreementCommand;
try {
  command = parseAgreementArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof StatsInputError)) throw error;
  fail(`${error.message}\n\n${AGREEMENT_USAGE}`);
}

if (command.kind === "help") {
  process.stdout.write(`${AGREEMENT_USAGE}\n`);
  process.exit(0);
}

let text: string;
try {
  text = fs.readFileSync(command.input, "utf8");
} catch (error) {
  fail(`cannot read ${command.input}: ${error instanceof Error ? error.message : String(error)}`);
}

try {
  process.stdout.write(`${JSON.stringify(agreementReportFromCsv(text, command.level), null, 2)}\n`);
} catch (error) {
  if (!(error instanceof StatsInputError)) throw error;
  fail(`${command.input}: ${error.message}`);
}
