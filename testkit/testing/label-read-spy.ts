import type { AlignmentLabelStore } from "../../lib/alignment/label-store";

/** One read of the label store: which method, for which videos, and how many judge runs the project had by then. */
export interface LabelRead {
  method: string;
  ids: string[];
  runsSoFar: number;
}

/**
 * TEST TOOL. A label store that records every read before passing it on, with the project's run count at that
 * moment, so a test can show that no held-out label is read before the alignment's final runs.
 */
export function labelReadSpy(
  store: AlignmentLabelStore,
  runsSoFar: () => Promise<number>,
): { spy: AlignmentLabelStore; events: LabelRead[] } {
  const events: LabelRead[] = [];
  const spy: AlignmentLabelStore = {
    labelledVideoIds: async () => {
      events.push({ method: "labelledVideoIds", ids: [], runsSoFar: await runsSoFar() });
      return store.labelledVideoIds();
    },
    strata: async (ids) => {
      events.push({ method: "strata", ids: [...ids], runsSoFar: await runsSoFar() });
      return store.strata(ids);
    },
    labels: async (ids) => {
      events.push({ method: "labels", ids: [...ids], runsSoFar: await runsSoFar() });
      return store.labels(ids);
    },
  };
  return { spy, events };
}
