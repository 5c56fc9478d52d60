import { judgePresence, PRESENCE_TARGET_TYPE, presenceSweepThresholds } from "../../task-modules/task-declaration";
import type {
  AgreementItem,
  AgreementOptions,
  PresenceCurve,
  PresenceReport,
  ReviewerInfo,
  SweepPoint,
} from "../types";
import { binaryMetrics, confusionOf } from "./confusion";
import type { Declarations } from "./declarations";
import { presenceThresholdOf } from "./judge-presence";
import { reviewerValue } from "./pairs";

/**
 * Each human side's presence labels (the live reviewers' consensus, each reviewer, each label set)
 * against the judge's presence at every t of the task's graded scale: "judge ≥ t means present".
 */
export function presenceReports(
  items: readonly AgreementItem[],
  reviewers: readonly ReviewerInfo[],
  d: Declarations,
  options: AgreementOptions,
): PresenceReport[] {
  const reports: PresenceReport[] = [];
  for (const task of d.tasks) {
    if (!task.presence) continue;
    const threshold = presenceThresholdOf(task, options);
    const thresholds = presenceSweepThresholds(task);
    const ofTask = items.filter(
      (i) =>
        i.targetType === PRESENCE_TARGET_TYPE &&
        (i.taskId ?? task.id) === task.id &&
        i.judgeScore !== null &&
        i.judgeScore !== undefined,
    );
    const sides: {
      human: string;
      label: string;
      labelSet?: ReviewerInfo["labelSet"];
      value: (item: AgreementItem) => number | null;
    }[] = [
      { human: "consensus", label: "Reviewers' consensus", value: (item) => d.consensus(item) },
      ...reviewers.map((r) => ({
        human: r.id,
        label: r.label,
        ...(r.labelSet ? { labelSet: r.labelSet } : {}),
        value: reviewerValue(r.id),
      })),
    ];
    const curves: PresenceCurve[] = [];
    for (const side of sides) {
      const rows = ofTask.flatMap((item) => {
        const human = side.value(item);
        return human === null ? [] : [{ truth: d.binarise(item, human), score: item.judgeScore! }];
      });
      if (rows.length === 0) continue;
      const truth = Uint8Array.from(rows, (r) => r.truth);
      const pointAt = (t: number): SweepPoint => {
        const c = confusionOf(
          truth,
          Uint8Array.from(rows, (r) => judgePresence([r.score], t)!),
        );
        return { threshold: t, ...c, ...binaryMetrics(c) };
      };
      const points = thresholds.map(pointAt);
      let best: SweepPoint | null = null;
      for (const p of points) {
        if (p.f1 === null) continue;
        if (!best || p.f1 > best.f1! || (p.f1 === best.f1 && (p.kappa ?? -Infinity) > (best.kappa ?? -Infinity)))
          best = p;
      }
      const { label, labelSet, human } = side;
      curves.push({
        human,
        label,
        ...(labelSet ? { labelSet } : {}),
        n: rows.length,
        points,
        chosen: points.find((p) => p.threshold === threshold) ?? pointAt(threshold),
        best,
      });
    }
    reports.push({
      taskId: task.id,
      threshold,
      defaultThreshold: task.presence.defaultThreshold,
      rule: `judge ≥ ${threshold} means present (its highest score of the category over key frames, clusters or the video)`,
      thresholds,
      curves,
    });
  }
  return reports;
}
