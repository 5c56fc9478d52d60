import { mulberry32 } from "../stats/bootstrap";

export interface AlignmentSplit {
  train: string[];
  heldOut: string[];
}

/**
 * Train and held-out, stratified by label class: each class is shuffled with the seed and its first
 * round(share·n) go to held-out (at least one of a class of two or more, so both sides see every class).
 */
export function stratifiedSplit(strata: ReadonlyMap<string, boolean>, heldOutShare: number, seed: number): AlignmentSplit {
  const random = mulberry32(seed);
  const train: string[] = [];
  const heldOut: string[] = [];
  for (const cls of [true, false]) {
    const ids = [...strata]
      .filter(([, c]) => c === cls)
      .map(([id]) => id)
      .sort();
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const take = ids.length >= 2 ? Math.min(ids.length - 1, Math.max(1, Math.round(heldOutShare * ids.length))) : 0;
    heldOut.push(...ids.slice(0, take));
    train.push(...ids.slice(take));
  }
  return { train: train.sort(), heldOut: heldOut.sort() };
}
