import { fleissKappaFromCounts } from "../../stats/fleiss-kappa";
import { krippendorffAlpha, type MeasurementLevel } from "../../stats/krippendorff-alpha";
import { percentAgreement } from "../../stats/percent-agreement";
import { RatingTableBuilder, type RatingTable } from "../../stats/rating-table";
import type { AgreementItem, AgreementOptions, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { finite } from "./numbers";

interface HumanTable {
  table: RatingTable;
  /** Per item, the count of each category (for Fleiss' kappa, which needs equal counts per item). */
  counts: number[][];
}

function humanTable(
  items: readonly AgreementItem[],
  value: (item: AgreementItem, v: number) => number,
): HumanTable | null {
  const rated = items.filter((item) => item.ratings.length >= 2);
  if (rated.length === 0) return null;
  const builder = new RatingTableBuilder();
  const categories = new Map<number, number>();
  rated.forEach((item, i) => {
    for (const r of item.ratings) {
      const v = value(item, r.value);
      builder.add(String(i), r.reviewerId, v, i);
      if (!categories.has(v)) categories.set(v, categories.size);
    }
  });
  const counts = rated.map((item) => {
    const row = new Array<number>(categories.size).fill(0);
    for (const r of item.ratings) row[categories.get(value(item, r.value))!]! += 1;
    return row;
  });
  return { table: builder.build(), counts };
}

/** Agreement among the reviewers of the targets rated at least twice: alpha, Fleiss' kappa, percent agreement. */
export function humanBlock(
  items: readonly AgreementItem[],
  value: (item: AgreementItem, v: number) => number,
  level: MeasurementLevel,
  options: AgreementOptions,
  withCi: boolean,
): StatBlock {
  const t = humanTable(items, value);
  if (!t) return { n: 0, values: { alpha: null, fleiss: null, percentAgreement: null }, ci: { alpha: null } };
  const { table, counts } = t;
  const values = {
    alpha: finite(krippendorffAlpha(table, level)),
    fleiss: finite(fleissKappaFromCounts(counts)),
    percentAgreement: finite(percentAgreement(table)),
  };
  const ci = withCi
    ? bootstrapMany(table.itemIds.length, ["alpha"], (sample) => [krippendorffAlpha(table, level, sample)], options)
    : { alpha: null };
  return { n: table.itemIds.length, values, ci };
}
