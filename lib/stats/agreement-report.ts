// The agreement CLI's logic without its I/O: arguments, and CSV text → rating table → report object.
// scripts/agreement.ts only reads the file and prints; everything here is testable without a process.
import { cohensKappaFromConfusion } from "./cohens-kappa";
import { confusionMatrixForRaters } from "./confusion-matrix";
import { kendallTauBOfRankings, pearson, type Ranking, spearmanOfRankings } from "./correlation";
import { meanAbsoluteError, rootMeanSquaredError } from "./error-metrics";
import { fleissKappa } from "./fleiss-kappa";
import { StatsInputError } from "./input-error";
import { krippendorffAlpha, MEASUREMENT_LEVELS, type MeasurementLevel } from "./krippendorff-alpha";
import { percentAgreement } from "./percent-agreement";
import { pairedCodes, type RatingTable, valuesOf } from "./rating-table";
import { parseRatingsCsv } from "./ratings-csv";

export const AGREEMENT_USAGE = `Usage: npm run agreement -- --input <ratings.csv> [--level nominal|ordinal|interval|ratio]

Inter-rater agreement of a CSV with the header item,rater,value (columns in any order, RFC 4180 quoting).
One row per rating; an empty value is a missing rating. Prints one JSON object on stdout.

  --input <file>   the ratings CSV (required)
  --level <level>  level of measurement for Krippendorff's alpha (default: ordinal).
                   ordinal, interval and ratio need every value to be a number (ratio: not negative);
                   nominal accepts any labels.
  -h, --help       this help

Always: n_items, n_raters, percent_agreement (mean, over items rated at least twice, of the share of
agreeing rater pairs), krippendorff_alpha (at --level), fleiss_kappa (null when any rating is missing).
With exactly two raters, over the items both rated: cohen_kappa, cohen_kappa_linear, cohen_kappa_quadratic,
spearman, kendall_tau_b, pearson, mae, rmse (the weighted kappas and the last five need numeric values).
A statistic that is undefined for the data (no variance, nothing to pair) is null.

Exit codes: 0 report printed, 2 bad arguments or bad CSV (the reason, with its line, on stderr).`;

export type AgreementCommand = { kind: "help" } | { kind: "run"; input: string; level: MeasurementLevel };

function isLevel(text: string): text is MeasurementLevel {
  return (MEASUREMENT_LEVELS as readonly string[]).includes(text);
}

/** Throws `StatsInputError` on a usage error. */
export function parseAgreementArgs(argv: readonly string[]): AgreementCommand {
  let input: string | undefined;
  let level: MeasurementLevel = "ordinal";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") return { kind: "help" };
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (name !== "--input" && name !== "--level") throw new StatsInputError(`unknown argument ${JSON.stringify(arg)}`);
    let value: string | undefined;
    if (name !== arg) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === "") throw new StatsInputError(`${name} needs a value`);
    if (name === "--input") input = value;
    else if (isLevel(value)) level = value;
    else
      throw new StatsInputError(
        `--level must be one of ${MEASUREMENT_LEVELS.join(", ")}, not ${JSON.stringify(value)}`,
      );
  }
  if (input === undefined) throw new StatsInputError("--input <file> is required");
  return { kind: "run", input, level };
}

export interface AgreementReport {
  level: MeasurementLevel;
  n_items: number;
  n_raters: number;
  percent_agreement: number | null;
  krippendorff_alpha: number | null;
  fleiss_kappa: number | null;
  cohen_kappa?: number | null;
  cohen_kappa_linear?: number | null;
  cohen_kappa_quadratic?: number | null;
  spearman?: number | null;
  kendall_tau_b?: number | null;
  pearson?: number | null;
  mae?: number | null;
  rmse?: number | null;
}

/** Every statistic of the report for a table; the two-rater ones only when the table has exactly two raters. */
export function agreementReport(table: RatingTable, level: MeasurementLevel): AgreementReport {
  const report: AgreementReport = {
    level,
    n_items: table.itemIds.length,
    n_raters: table.raterIds.length,
    percent_agreement: percentAgreement(table),
    krippendorff_alpha: krippendorffAlpha(table, level),
    fleiss_kappa: fleissKappa(table),
  };
  if (table.raterIds.length !== 2) return report;
  const confusion = confusionMatrixForRaters(table, 0, 1);
  const paired = pairedCodes(table, 0, 1);
  const x = valuesOf(table, paired.a);
  const y = valuesOf(table, paired.b);
  const numeric = <T>(f: (x: Float64Array, y: Float64Array) => T): T | null =>
    x === null || y === null ? null : f(x, y);
  // Category codes are ranks of the sorted numeric categories, so the rank statistics need no re-ranking.
  const levels = table.categories.length;
  const ranked = <T>(f: (x: Ranking, y: Ranking) => T): T | null =>
    table.categoryValues === null ? null : f({ ranks: paired.a, levels }, { ranks: paired.b, levels });
  return {
    ...report,
    cohen_kappa: cohensKappaFromConfusion(confusion, "unweighted"),
    cohen_kappa_linear: cohensKappaFromConfusion(confusion, "linear"),
    cohen_kappa_quadratic: cohensKappaFromConfusion(confusion, "quadratic"),
    spearman: ranked(spearmanOfRankings),
    kendall_tau_b: ranked(kendallTauBOfRankings),
    pearson: numeric(pearson),
    mae: numeric(meanAbsoluteError),
    rmse: numeric(rootMeanSquaredError),
  };
}

export function agreementReportFromCsv(text: string, level: MeasurementLevel): AgreementReport {
  return agreementReport(parseRatingsCsv(text, level), level);
}
