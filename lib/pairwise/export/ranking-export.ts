/**
 * A pairwise leaderboard (a Ranking from lib/pairwise/ranking) as CSV and as a LaTeX tabular (booktabs), one row per
 * rated generator in rating order: Rank (UB), generator, rating, the 95% interval, votes, and the preliminary mark.
 * Unrated generators (in pairs, with no vote) follow with empty figures, so the table says they were left out.
 */
import { csvRow } from "../../format/csv";
import { escapeLatex } from "../../export/latex";
import type { Ranking } from "../ranking/ranking.types";

export const RANKING_CSV_COLUMNS = [
  "rank_ub",
  "generator",
  "rating",
  "lower",
  "upper",
  "votes",
  "preliminary",
] as const;

const oneDecimal = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

export function rankingToCsv(ranking: Ranking): string {
  const rows = ranking.ratings.map((r) =>
    csvRow([
      r.rankUb,
      r.generator,
      oneDecimal(r.rating),
      oneDecimal(r.lower),
      oneDecimal(r.upper),
      r.votes,
      r.preliminary,
    ]),
  );
  const unrated = ranking.unrated.map((generator) => csvRow(["", generator, null, null, null, 0, true]));
  return [csvRow([...RANKING_CSV_COLUMNS]), ...rows, ...unrated].join("");
}

const latexNumber = (value: number | null) => (value === null ? "--" : value.toFixed(1));

export function rankingToLatex(ranking: Ranking): string {
  const lines = [
    "\\begin{tabular}{rlrrrr}",
    "\\toprule",
    "Rank (UB) & Generator & Rating & 95\\% CI & Votes & \\\\",
    "\\midrule",
    ...ranking.ratings.map((r) => {
      const interval =
        r.lower === null || r.upper === null ? "--" : `[${latexNumber(r.lower)}, ${latexNumber(r.upper)}]`;
      const mark = r.preliminary ? "prelim." : "";
      return `${r.rankUb} & ${escapeLatex(r.generator)} & ${latexNumber(r.rating)} & ${interval} & ${r.votes} & ${mark} \\\\`;
    }),
    ...ranking.unrated.map((generator) => `-- & ${escapeLatex(generator)} & -- & -- & 0 & no votes \\\\`),
    "\\bottomrule",
    "\\end{tabular}",
  ];
  return `${lines.join("\n")}\n`;
}
