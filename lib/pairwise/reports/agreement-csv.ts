import { csvRow } from "../../format/csv";
import type { AgreementFigure } from "../agreement/agreement.types";
import type { PairwiseAgreement } from "./reports.types";

const STATISTICS = ["accuracy4", "accuracy3", "accuracy2", "cohenKappa", "krippendorffAlpha"] as const;

/** The header of pairwise agreement rows: one row per aspect, rater, reference and statistic, with its interval. */
export const PAIRWISE_AGREEMENT_COLUMNS = [
  "aspect",
  "rater",
  "rater_name",
  "rater_kind",
  "reference",
  "statistic",
  "value",
  "lower",
  "upper",
  "n",
] as const;

/**
 * The pairwise agreement as CSV rows (without the header): every figure of every row, then each judge's "within
 * human noise" line as a statistic of its own (value 1 within, 0 not, empty when it cannot be said).
 */
export function pairwiseAgreementCsvRows(report: PairwiseAgreement): string[] {
  const name = (id: string) => report.raterNames[id] ?? id;
  const figureRow = (cells: string[], statistic: string, figure: AgreementFigure) =>
    csvRow([...cells, statistic, figure.value, figure.lower, figure.upper, figure.n]);
  return report.aspects.flatMap((aspect) => [
    ...aspect.rows.flatMap((row) =>
      STATISTICS.map((statistic) =>
        figureRow(
          [row.aspect, row.rater, name(row.rater), row.raterKind, row.reference],
          statistic,
          row.agreement[statistic],
        ),
      ),
    ),
    ...aspect.noise.map((line) =>
      csvRow([
        line.aspect,
        line.judge,
        name(line.judge),
        "judge",
        "people",
        "within_human_noise",
        line.within === null ? null : line.within ? 1 : 0,
        line.humanAccuracy3.lower,
        line.humanAccuracy3.upper,
        line.judgeAccuracy3.n,
      ]),
    ),
  ]);
}

export function pairwiseAgreementCsv(report: PairwiseAgreement): string {
  return [csvRow([...PAIRWISE_AGREEMENT_COLUMNS]), ...pairwiseAgreementCsvRows(report)].join("");
}
