import { type AgreementInput, type AgreementOptions, type AgreementReport, BREAKDOWNS } from "../types";
import { breakdown } from "./breakdown";
import { compareReviewers } from "./compare-reviewers";
import { compareWithJudge } from "./compare-with-judge";
import { confusionKinds } from "./confusion-kinds";
import { confusionView } from "./confusion-view";
import { Declarations } from "./declarations";
import { withJudgePresence } from "./judge-presence";
import { oncePerTarget, reviewerValue } from "./pairs";
import { presenceReports } from "./presence-reports";
import { scatter } from "./scatter";
import { thresholdSweep } from "./threshold-sweep";

/**
 * The agreement report of a set of judged targets: pure, deterministic (seeded bootstrap), every
 * undefined statistic `null` (never NaN). Human values are compared with the judge's for each
 * reviewer and for the reviewers' consensus (the declared level's: median, or nominal majority),
 * and among reviewers; on each target's own scale (α at its declared level) and binarised by its
 * declared positive rule (thresholds overridable per request).
 */
export function agreementReport(input: AgreementInput, options: AgreementOptions): AgreementReport {
  const d = new Declarations(input.tasks, options, options.truth ?? "consensus");
  const items = withJudgePresence(
    input.items.filter((i) => i.ratings.length > 0),
    d,
    options,
  );
  const reviewersWithRatings = input.reviewers.filter((r) =>
    items.some((i) => i.ratings.some((x) => x.reviewerId === r.id)),
  );
  const groupings = [
    ...new Map(
      d.tasks
        .flatMap((t) => t.groupings)
        .filter((g) => !(BREAKDOWNS as readonly string[]).includes(g.id))
        .map((g) => [g.id, { id: g.id, label: g.label }]),
    ).values(),
  ];
  const breakdowns = {} as AgreementReport["breakdowns"];
  for (const by of [...BREAKDOWNS, ...groupings.map((g) => g.id)])
    breakdowns[by] = breakdown(items, by, input, options, d);
  const confusion = {} as AgreementReport["confusion"];
  for (const type of d.targetTypes())
    confusion[type] = confusionView(
      items.filter((i) => i.targetType === type),
      d,
    );
  confusion.all = confusionView(items, d);
  return {
    confusionKinds: [
      ...confusionKinds(items, d),
      { id: "all", label: "All targets", positive: "positive", negative: "negative", listKeys: null },
    ],
    options: {
      threshold: options.threshold,
      overallThreshold: options.overallThreshold,
      iterations: options.iterations,
      seed: options.seed,
      truth: options.truth ?? "consensus",
    },
    runs: input.runs,
    reviewers: reviewersWithRatings,
    summary: {
      videos: input.videoCount,
      judgeItems: input.judgeItemCount,
      reviewedItems: items.length,
      judgments: oncePerTarget(items).reduce((sum, i) => sum + i.ratings.length, 0),
      reviewedVideos: new Set(items.map((i) => `${i.runId}:${i.videoId}`)).size,
      multiReviewedItems: oncePerTarget(items).filter((i) => i.ratings.length >= 2).length,
      reviewers: reviewersWithRatings.length,
    },
    humanVsJudge: {
      consensus: compareWithJudge(items, (item) => d.consensus(item), options, d),
      // The adjudicated gold is an annotator of its own: never one of the reviewers, never in their consensus.
      gold: items.some((i) => i.gold !== undefined && i.gold !== null)
        ? compareWithJudge(items, (item) => item.gold ?? null, options, d)
        : null,
      reviewers: reviewersWithRatings.map((r) => ({
        reviewerId: r.id,
        label: r.label,
        ...(r.labelSet ? { labelSet: r.labelSet } : {}),
        ...compareWithJudge(items, reviewerValue(r.id), options, d),
      })),
    },
    humanVsHuman: compareReviewers(items, reviewersWithRatings, options, d),
    confusion,
    sweep: thresholdSweep(items, d),
    presence: presenceReports(items, reviewersWithRatings, d, options),
    breakdowns,
    groupings,
    scatter: scatter(items, options.scatterLimit, d),
  };
}
