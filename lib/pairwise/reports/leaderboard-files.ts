import { rankingToCsv, rankingToLatex } from "../export/ranking-export";
import type { PairwiseLeaderboard } from "./reports.types";
import { ValidationError } from "../../errors";

/**
 * The first board's ranking as a CSV or LaTeX file and its name (`pairwise-<set>-<aspect>-<raters>`); a withheld
 * board has no file: a 400 that says why, never an empty table.
 */
export function pairwiseLeaderboardFiles(
  board: PairwiseLeaderboard,
  query: { format: "csv" | "latex" },
): { body: string; baseName: string } {
  const first = board.boards[0]!;
  if (first.status !== "ranked") throw new ValidationError(`${first.label}: ${first.reason}`);
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");
  const baseName = `pairwise-${board.pairSet.id}-${safe(board.aspect.id)}-${safe(first.raters)}`;
  const body = query.format === "csv" ? rankingToCsv(first.ranking) : rankingToLatex(first.ranking);
  return { body, baseName };
}
