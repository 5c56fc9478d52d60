import { type JudgedDeclaration, SCORE_TARGET_TYPE } from "../../reviews/judgment-target";
import { PRESENCE_TARGET_TYPE } from "../../task-modules/task-declaration";
import type { AgreementItem, ConfusionKind } from "../types";
import type { Declarations } from "./declarations";

const scaleText = (scale: JudgedDeclaration["scale"]) =>
  scale.kind === "numeric" ? ` (${scale.min}–${scale.max})` : "";

/**
 * Each target type's confusion view as the declarations name it: the tasks' verdicts first (their
 * cells open the video list filtered on both verdicts), then the scores and the other reviewed metrics.
 */
export function confusionKinds(items: readonly AgreementItem[], d: Declarations): ConfusionKind[] {
  const kinds: ConfusionKind[] = [];
  for (const type of d.targetTypes()) {
    if (type === PRESENCE_TARGET_TYPE) {
      kinds.push({ id: type, label: "Presence (per video)", positive: "present", negative: "absent", listKeys: null });
      continue;
    }
    if (type === SCORE_TARGET_TYPE) {
      const declared = [...new Set(items.filter((i) => i.targetType === type).map((i) => d.of(i)))];
      const all = declared.length ? declared : d.tasks.flatMap((t) => t.targets);
      const same = <T>(pick: (x: JudgedDeclaration) => T) =>
        all.length && all.every((x) => JSON.stringify(pick(x)) === JSON.stringify(pick(all[0]!)))
          ? pick(all[0]!)
          : null;
      const scale = same((x) => x.scale);
      const positive = same((x) => x.positive.label);
      kinds.push({
        id: type,
        label: `Scores${scale ? scaleText(scale) : ""}`,
        positive: positive ?? "positive",
        negative: positive ? `not ${positive}` : "negative",
        listKeys: null,
      });
      continue;
    }
    const metric = d.of({ targetType: type, category: type });
    const task = d.tasks.find((t) => t.metrics.includes(metric as never));
    const isVerdict = task?.verdict?.metricId === type;
    const alias = task?.queryAliases?.find((a) => a.metric === type && a.bound === "is")?.key ?? `is.${type}`;
    const entry: ConfusionKind = {
      id: type,
      label: isVerdict ? `${metric.label} verdicts` : `${metric.label}${scaleText(metric.scale)}`,
      positive: metric.positive.label,
      negative: isVerdict ? "none" : `not ${metric.positive.label}`,
      listKeys: isVerdict && task?.subject === "video" ? { judge: alias, human: "humanVerdict" } : null,
    };
    if (isVerdict) kinds.unshift(entry);
    else kinds.push(entry);
  }
  return kinds;
}
