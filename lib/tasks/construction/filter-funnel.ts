/**
 * Seed 004's four filters, in its order, and the funnel of how many generated candidates each keeps.
 *
 * 1. Blind questions: the model answers without the video (Table 24) and its answer agrees with the reference
 *    (Table 28): the question does not need the video.
 * 2. Hallucination: the question asks for what the annotations do not support (Table 25 says "Yes").
 * 3. Tricky questions: answered from the annotations (Table 26), the answer disagrees with the reference
 *    (Table 28): even with the video it is answered wrongly.
 * 4. Unspecific or incomplete answers: Table 27 says "Yes".
 *
 * A candidate is removed by the first filter that removes it and is not sent to the later ones. A removed
 * candidate stays, with the filter's reason, and a curator may restore it: it then counts as kept from that
 * filter on. A candidate whose filter has not decided yet (running, or failed) stops there as pending.
 */
export const FILTERS = [
  { id: "blind", label: "Blind questions", removes: "answered right without the video" },
  { id: "hallucination", label: "Hallucination", removes: "not supported by the annotations" },
  { id: "tricky", label: "Tricky questions", removes: "answered wrongly even with the video" },
  { id: "unspecific", label: "Unspecific or incomplete answers", removes: "the answer is vague or incomplete" },
] as const;
export type FilterId = (typeof FILTERS)[number]["id"];
export const FILTER_IDS = FILTERS.map((f) => f.id) as FilterId[];

export interface FilterDecision {
  removed: boolean;
  reason: string;
}

export interface CandidateFilters {
  category: string | null;
  dataset: string;
  /** Decisions so far by filter; a filter with no entry has not decided. */
  decisions: Partial<Record<FilterId, FilterDecision>>;
  /** A curator restored the candidate that this filter removed. */
  restoredFrom?: FilterId | null;
  /** Every filter a curator undid for the candidate (a candidate restored from one filter may be removed by a later one and restored again). */
  restored?: readonly FilterId[];
}

function undone(candidate: Pick<CandidateFilters, "restoredFrom" | "restored">, filter: FilterId): boolean {
  return candidate.restoredFrom === filter || (candidate.restored?.includes(filter) ?? false);
}

export type CandidateFate =
  { state: "kept" } | { state: "removed"; by: FilterId; reason: string } | { state: "pending"; at: FilterId };

export function candidateFate(candidate: CandidateFilters): CandidateFate {
  for (const filter of FILTER_IDS) {
    const decision = candidate.decisions[filter];
    if (!decision) return { state: "pending", at: filter };
    if (decision.removed && !undone(candidate, filter))
      return { state: "removed", by: filter, reason: decision.reason };
  }
  return { state: "kept" };
}

export interface FunnelStage {
  /** "generated", then each filter's id. */
  id: "generated" | FilterId;
  label: string;
  /** Candidates that reached the stage and passed it (for "generated": all). */
  kept: number;
  removed: number;
  pending: number;
  keptByCategory: Record<string, number>;
  keptByDataset: Record<string, number>;
}

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

export function filterFunnel(candidates: readonly CandidateFilters[]): FunnelStage[] {
  const stage = (id: FunnelStage["id"], label: string): FunnelStage => ({
    id,
    label,
    kept: 0,
    removed: 0,
    pending: 0,
    keptByCategory: {},
    keptByDataset: {},
  });
  const stages = [stage("generated", "Generated"), ...FILTERS.map((f) => stage(f.id, f.label))];
  for (const candidate of candidates) {
    const category = candidate.category ?? "(not categorised)";
    const count = (s: FunnelStage) => {
      s.kept += 1;
      bump(s.keptByCategory, category);
      bump(s.keptByDataset, candidate.dataset);
    };
    count(stages[0]!);
    const fate = candidateFate(candidate);
    for (const [i, filter] of FILTER_IDS.entries()) {
      const s = stages[i + 1]!;
      if (fate.state === "removed" && fate.by === filter) {
        s.removed += 1;
        break;
      }
      if (fate.state === "pending" && fate.at === filter) {
        s.pending += 1;
        break;
      }
      count(s);
    }
  }
  return stages;
}
