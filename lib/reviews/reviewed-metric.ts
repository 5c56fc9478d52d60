import { z } from "zod";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";

/**
 * The `{target}` of `PUT /api/v1/runs/{runId}/videos/{videoId}/review/{target}`: a reviewed per-video
 * metric of a task of the request's catalogue (reviewVideoOutcome checks it is one of the run's).
 */
export function reviewedMetricIdSchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("reviews.reviewedMetricId", () =>
    z.enum(
      catalogue
        .allMetrics()
        .filter((m) => m.reviewed)
        .map((m) => m.id) as [string, ...string[]],
    ),
  );
}
