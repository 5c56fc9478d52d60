import type { VoteTable } from "./aggregate";

/** The win-rate, both-bad-rate and vote-count matrices, rows and columns in the order of `order` (indices). */
export function pairMatrices(
  table: VoteTable,
  order: readonly number[],
): { winRate: (number | null)[][]; bothBadRate: (number | null)[][]; voteCount: number[][] } {
  const n = table.generators.length;
  const cellOf = new Int32Array(n * n).fill(-1);
  for (let c = 0; c < table.cellI.length; c++) cellOf[table.cellI[c]! * n + table.cellJ[c]!] = c;
  const winRate = order.map(() => order.map((): number | null => null));
  const bothBadRate = order.map(() => order.map((): number | null => null));
  const voteCount = order.map(() => order.map(() => 0));
  order.forEach((g, row) => {
    order.forEach((h, column) => {
      if (g === h) return;
      const c = g < h ? cellOf[g * n + h]! : cellOf[h * n + g]!;
      if (c < 0) return;
      const wins = g < h ? table.totals.winI[c]! : table.totals.winJ[c]!;
      const ties = table.totals.ties[c]!;
      const total = table.totals.winI[c]! + table.totals.winJ[c]! + ties;
      winRate[row]![column] = (wins + ties / 2) / total;
      bothBadRate[row]![column] = table.tiesBad[c]! / total;
      voteCount[row]![column] = total;
    });
  });
  return { winRate, bothBadRate, voteCount };
}
