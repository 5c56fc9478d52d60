/** How far two rankings of generators agree (the judge's against VBench's or the reviewers'): Kendall's tau-b. */
import { kendallTauB } from "../stats/correlation";
import { StatsInputError } from "../stats/input-error";

/** A ranking, best first; a nested list is a tie (["A", ["B", "C"], "D"]: B and C share second place). */
export type RankingInput = readonly (string | readonly string[])[];

function positions(ranking: RankingInput, name: string): Map<string, number> {
  const out = new Map<string, number>();
  ranking.forEach((entry, place) => {
    for (const item of typeof entry === "string" ? [entry] : entry) {
      if (out.has(item)) throw new StatsInputError(`"${item}" appears twice in ranking ${name}`);
      out.set(item, place);
    }
  });
  return out;
}

/**
 * Kendall's tau-b between two rankings over the items both contain (ties allowed as nested lists, and
 * handled by tau-b): 1 for the same order, −1 for the reverse. Null for fewer than two shared items or when
 * either ranking ties all of them.
 */
export function kendallTau(a: RankingInput, b: RankingInput): number | null {
  const inA = positions(a, "a");
  const inB = positions(b, "b");
  const common = [...inA.keys()].filter((item) => inB.has(item));
  if (common.length < 2) return null;
  return kendallTauB(
    common.map((item) => inA.get(item)!),
    common.map((item) => inB.get(item)!),
  );
}
