import { ValidationError } from "../errors";
import { mulberry32 } from "../stats/bootstrap";
import type { AlignmentLabelStore } from "./label-store";

export interface AlignmentSplit {
  train: string[];
  heldOut: string[];
}

/**
 * Train and held-out, stratified by label class: each class is shuffled with the seed and its first
 * round(share·n) go to held-out (at least one of a class of two or more, so both sides see every class).
 */
export function stratifiedSplit(
  strata: ReadonlyMap<string, boolean>,
  heldOutShare: number,
  seed: number,
): AlignmentSplit {
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

/**
 * Step 1 of every alignment: the labelled videos split by their label class (the only read of the held-out videos'
 * labels before the final step), and the train videos' labels.
 */
export async function splitLabelled(
  labels: AlignmentLabelStore,
  heldOutShare: number,
  seed: number,
): Promise<{ split: AlignmentSplit; trainLabels: Map<string, number> }> {
  const videoIds = await labels.labelledVideoIds();
  const split = stratifiedSplit(await labels.strata(videoIds), heldOutShare, seed);
  if (split.train.length < 4 || split.heldOut.length < 2)
    throw new ValidationError(
      `Too few labelled videos to align (${videoIds.length}): train needs at least 4 and held-out 2, with both label classes.`,
    );
  return { split, trainLabels: await labels.labels(split.train) };
}

/**
 * k labelled train videos for few-shot examples, alternately of each label class while both have some (seeded
 * shuffle), so the examples show both classes where train allows. Only train videos and their train labels.
 */
export function fewShotPick(
  train: readonly string[],
  labels: ReadonlyMap<string, number>,
  truthPositive: (label: number) => boolean,
  k: number,
  seed: number,
): string[] {
  const random = mulberry32(seed + 1);
  const shuffled = train.filter((id) => labels.has(id));
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const positives = shuffled.filter((id) => truthPositive(labels.get(id)!));
  const negatives = shuffled.filter((id) => !truthPositive(labels.get(id)!));
  const picked: string[] = [];
  for (let i = 0; picked.length < k && (i < positives.length || i < negatives.length); i++) {
    if (i < positives.length) picked.push(positives[i]!);
    if (picked.length < k && i < negatives.length) picked.push(negatives[i]!);
  }
  return picked;
}
