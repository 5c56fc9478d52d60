/**
 * Frame-level agreement from a 2×2 table of frames (marked by both, by the reference only, by the prediction only, by
 * neither). Cohen's κ goes through the one kappa of lib/stats; Krippendorff's α (nominal, two raters, no missing
 * values) is its closed form over the same table, since a table of millions of frames is never built as rating rows:
 * the coincidences are o₁₁ = 2·both, o₀₀ = 2·neither, o₀₁ = o₁₀ = referenceOnly + predictionOnly over n = 2N values,
 * so α = 1 − (n − 1)·(o₀₁ + o₁₀) / (2·n₀·n₁) with n₀, n₁ the coincidence marginals (Krippendorff 2011).
 */
import { cohensKappaFromConfusion } from "../../stats/cohens-kappa";

export interface FrameTable {
  both: number;
  referenceOnly: number;
  predictionOnly: number;
  neither: number;
}

/** Cohen's κ of the frames (rows the reference, columns the prediction); null when undefined (no variation). */
export function frameKappa(t: FrameTable): number | null {
  const counts = Float64Array.of(t.neither, t.referenceOnly, t.predictionOnly, t.both);
  const total = t.both + t.referenceOnly + t.predictionOnly + t.neither;
  return cohensKappaFromConfusion({ labels: [0, 1], counts, total });
}

/** Krippendorff's α (nominal) of the frames; null when undefined (fewer than two frames, or one value only). */
export function frameAlpha(t: FrameTable): number | null {
  const frames = t.both + t.referenceOnly + t.predictionOnly + t.neither;
  const n = 2 * frames;
  if (n < 2) return null;
  const disagree = t.referenceOnly + t.predictionOnly;
  const n1 = 2 * t.both + disagree;
  const n0 = 2 * t.neither + disagree;
  if (n0 === 0 || n1 === 0) return null;
  return 1 - ((n - 1) * 2 * disagree) / (2 * n0 * n1);
}
