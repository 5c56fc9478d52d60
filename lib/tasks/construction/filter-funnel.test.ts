import { describe, expect, it } from "vitest";
import { type CandidateFilters, candidateFate, FILTER_IDS, type FilterId, filterFunnel } from "./filter-funnel";

/** Whether a filter is still to be asked about a candidate (no earlier filter removed it), read off its fate. */
function reachesFilter(candidate: Pick<CandidateFilters, "decisions" | "restoredFrom" | "restored">, filter: FilterId) {
  const fate = candidateFate({ category: null, dataset: "", ...candidate });
  if (fate.state === "kept") return true;
  return FILTER_IDS.indexOf(fate.state === "removed" ? fate.by : fate.at) >= FILTER_IDS.indexOf(filter);
}

const pass = { removed: false, reason: "fine" };
const drop = (reason: string) => ({ removed: true, reason });

const candidates: CandidateFilters[] = [
  // Kept through all four.
  {
    category: "Step Sequencing",
    dataset: "hirest",
    decisions: { blind: pass, hallucination: pass, tricky: pass, unspecific: pass },
  },
  {
    category: "Step Sequencing",
    dataset: "youcook2",
    decisions: { blind: pass, hallucination: pass, tricky: pass, unspecific: pass },
  },
  // Removed by the blind filter: never asked the others.
  { category: "Past Step Recall", dataset: "hirest", decisions: { blind: drop("right without the video") } },
  // Removed by hallucination, then restored by a curator: kept from there, and tricky removes it.
  {
    category: "Object Attribute Recognition",
    dataset: "hirest",
    decisions: { blind: pass, hallucination: drop("not in the annotations"), tricky: drop("wrong with the video") },
    restoredFrom: "hallucination",
  },
  // Still waiting for the tricky filter.
  { category: null, dataset: "ego4d-goalstep", decisions: { blind: pass, hallucination: pass } },
  // Unspecific answer.
  {
    category: "Step Sequencing",
    dataset: "hirest",
    decisions: { blind: pass, hallucination: pass, tricky: pass, unspecific: drop("vague") },
  },
];

describe("the filter funnel", () => {
  it("counts, stage by stage, the candidates each filter keeps, removes and has not decided yet (worked by hand)", () => {
    const stages = filterFunnel(candidates);
    expect(stages.map((s) => [s.id, s.kept, s.removed, s.pending])).toEqual([
      ["generated", 6, 0, 0],
      ["blind", 5, 1, 0],
      ["hallucination", 5, 0, 0],
      ["tricky", 3, 1, 1],
      ["unspecific", 2, 1, 0],
    ]);
    expect(stages[0]!.keptByCategory).toEqual({
      "Step Sequencing": 3,
      "Past Step Recall": 1,
      "Object Attribute Recognition": 1,
      "(not categorised)": 1,
    });
    expect(stages[4]!.keptByDataset).toEqual({ hirest: 1, youcook2: 1 });
    expect(stages[3]!.keptByCategory).toEqual({ "Step Sequencing": 3 });
  });

  it("says why a candidate was removed, and sends a removed one to no later filter", () => {
    expect(candidateFate(candidates[2]!)).toEqual({ state: "removed", by: "blind", reason: "right without the video" });
    expect(candidateFate(candidates[3]!)).toEqual({ state: "removed", by: "tricky", reason: "wrong with the video" });
    expect(candidateFate(candidates[4]!)).toEqual({ state: "pending", at: "tricky" });
    expect(reachesFilter(candidates[2]!, "hallucination")).toBe(false);
    expect(reachesFilter(candidates[3]!, "tricky")).toBe(true);
    expect(reachesFilter({ decisions: { blind: pass } }, "tricky")).toBe(false);
  });
  it("honours every filter a curator undid: a candidate restored from blind and then from tricky is kept", () => {
    const twice = {
      category: "Step Sequencing",
      dataset: "hirest",
      decisions: {
        blind: drop("right without the video"),
        hallucination: pass,
        tricky: drop("wrong with the video"),
        unspecific: pass,
      },
      restoredFrom: "tricky" as const,
      restored: ["blind", "tricky"] as const,
    };
    expect(candidateFate(twice)).toEqual({ state: "kept" });
    expect(reachesFilter(twice, "unspecific")).toBe(true);
    expect(filterFunnel([twice]).map((s) => [s.id, s.kept, s.removed])).toEqual([
      ["generated", 1, 0],
      ["blind", 1, 0],
      ["hallucination", 1, 0],
      ["tricky", 1, 0],
      ["unspecific", 1, 0],
    ]);
  });
});
