import { z } from "zod";
import { allMetrics } from "../tasks/registry";

/**
 * The `{target}` of `PUT /api/v1/runs/{runId}/videos/{videoId}/review/{target}`: a reviewed per-video
 * metric of some registered task (reviewVideoOutcome checks it is one of the run's). Built on call, from
 * the tasks registered by then.
 */
export function reviewedMetricIdSchema() {
  return z.enum(
    allMetrics()
      .filter((m) => m.reviewed)
      .map((m) => m.id) as [string, ...string[]],
  );
}
