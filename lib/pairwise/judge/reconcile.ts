/**
 * How a pairwise judge run's two answers on one (pair, aspect) become its one verdict. Every pair is asked in both
 * orders (AB: video A shown first; BA: video B shown first, its answer un-swapped to the pair's terms), so a judge
 * that prefers whatever it sees first contradicts itself and its preference cancels out:
 * - both orders agree → that verdict (a strong preference only when both said it strongly);
 * - opposite winners (A in one order, B in the other) → `tie_good`, counted as a position flip. An order-inconsistent
 *   pair is a tie, as MT-Bench and most judge-bias work count it; it is "good", not "bad", because each order found a
 *   video better than the other, which a judge that thought both bad would not;
 * - one order names a winner and the other a tie → the tie (the preference did not survive the exchange);
 *   both ties of different kinds → `tie_bad` (one order found both bad: the pair is not a clear "both good");
 * - one order gave no verdict → the other's, marked single-order; neither did → no verdict.
 */
import { swapVerdict, type Strength, type Verdict } from "../verdicts";

export const PAIR_ORDERS = ["AB", "BA"] as const;
export type PairOrder = (typeof PAIR_ORDERS)[number];

/** One order's answer in the pair's terms (null: the answer held no verdict label). */
export interface OrderVerdict {
  verdict: Verdict | null;
  strength: Strength | null;
}

export type Reconciled =
  | { verdict: Verdict; strength: Strength; basis: "agreed" | "flip" | "mixed" | "single_order" }
  | { verdict: null; strength: null; basis: "no_verdict" };

const isWinner = (verdict: Verdict): verdict is "A" | "B" => verdict === "A" || verdict === "B";

export function reconcileOrders(ab: OrderVerdict, ba: OrderVerdict): Reconciled {
  if (ab.verdict === null && ba.verdict === null) return { verdict: null, strength: null, basis: "no_verdict" };
  if (ab.verdict === null || ba.verdict === null) {
    const only = (ab.verdict === null ? ba : ab) as { verdict: Verdict; strength: Strength | null };
    return { verdict: only.verdict, strength: only.strength ?? 1, basis: "single_order" };
  }
  if (ab.verdict === ba.verdict) {
    const strength = Math.min(ab.strength ?? 1, ba.strength ?? 1) as Strength;
    return { verdict: ab.verdict, strength, basis: "agreed" };
  }
  if (isWinner(ab.verdict) && isWinner(ba.verdict)) return { verdict: "tie_good", strength: 1, basis: "flip" };
  const tie = isWinner(ab.verdict) ? ba.verdict : isWinner(ba.verdict) ? ab.verdict : "tie_bad";
  return { verdict: tie, strength: 1, basis: "mixed" };
}

/** The verdict as the judge said it of the videos as shown, in the pair's terms: BA showed B as "Video A". */
export function inPairTerms(order: PairOrder, shown: Verdict): Verdict {
  switch (order) {
    case "AB":
      return shown;
    case "BA":
      return swapVerdict(shown);
    default: {
      const never: never = order;
      throw new Error(`unknown order ${String(never)}`);
    }
  }
}
