import { SCORE_TARGET_TYPE } from "../../reviews/judgment-target";
import { PRESENCE_TARGET_TYPE } from "../../task-modules/task-declaration";
import {
  type AgreementInput,
  type AgreementItem,
  type AgreementOptions,
  BREAKDOWNS,
  type BreakdownGroup,
} from "../types";
import type { Declarations } from "./declarations";
import { groupBlock, groupLevel } from "./group-block";
import { humanBlock } from "./human-block";
import { oncePerTarget } from "./pairs";

function groupKeys(item: AgreementItem, breakdown: string, d: Declarations): { key: string; label: string }[] {
  switch (breakdown) {
    case "category": {
      // A category's presence is another target than its graded scores: its own group.
      if (item.targetType === PRESENCE_TARGET_TYPE)
        return [{ key: `${PRESENCE_TARGET_TYPE}:${item.category}`, label: `${item.category} present` }];
      // A task that groups by its items' own category (a question's) breaks down by that, not by the target.
      const ofItem = item.groups?.category;
      return ofItem !== undefined
        ? [{ key: ofItem, label: ofItem || "(none)" }]
        : [{ key: item.category, label: item.category }];
    }
    case "dimension":
      return item.dimensions.length
        ? item.dimensions.map((d) => ({ key: d, label: d }))
        : [{ key: "", label: "(none)" }];
    case "model":
      return [{ key: item.model ?? "", label: item.model ?? "(none)" }];
    case "endpoint":
      return [{ key: item.endpointId, label: item.endpointId }];
    case "promptVersion":
      return [
        { key: item.promptVersion ?? "", label: item.promptVersion ? shortVersion(item.promptVersion) : "(unknown)" },
      ];
    default: {
      // A declared grouping: a target's group value; a per-video metric forms its own group, as in "category".
      const declaration = d.of(item);
      const ofItem = item.groups?.[breakdown];
      if (item.targetType !== SCORE_TARGET_TYPE && item.targetType !== PRESENCE_TARGET_TYPE && ofItem === undefined)
        return [{ key: item.category, label: item.category }];
      const value = ofItem ?? ("groups" in declaration ? declaration.groups?.[breakdown] : undefined);
      if (value === undefined) return [{ key: "", label: "(none)" }];
      const label =
        d.tasks
          .flatMap((t) => t.groupings)
          .find((g) => g.id === breakdown)
          ?.values.find((v) => v.id === value)?.label ?? value;
      return [{ key: value, label }];
    }
  }
}

function shortVersion(version: string): string {
  return version
    .split("+")
    .map((h) => h.slice(0, 8))
    .join("+");
}

function groupLink(
  breakdown: string,
  key: string,
  items: readonly AgreementItem[],
  input: AgreementInput,
): Record<string, string> | null {
  const runIds = new Set(items.map((i) => i.runId));
  const run: Record<string, string> = runIds.size === 1 ? { runId: [...runIds][0]! } : {};
  switch (breakdown) {
    case "category":
      // Per-video metrics have no category filter: their group links to the run's list.
      if (items.some((i) => i.targetType !== SCORE_TARGET_TYPE || i.groups?.category !== undefined))
        return runIds.size === 1 ? run : null;
      return { ...run, category: key };
    case "dimension":
      return key ? { ...run, dimension: key } : null;
    case "model":
      return key ? { ...run, model: key } : null;
    case "endpoint": {
      const runs = input.runs.filter((r) => r.endpointId === key);
      return runs.length === 1 ? { runId: runs[0]!.id } : null;
    }
    case "promptVersion":
      return runIds.size === 1 ? run : null;
    default:
      return runIds.size === 1 ? run : null;
  }
}

type GroupStatistics = Pick<BreakdownGroup, "judge" | "humans" | "level">;

/** Per report (its Declarations), the statistics of the groups made so far, by their number of items. */
const statisticsOfReport = new WeakMap<
  Declarations,
  Map<number, { items: readonly AgreementItem[]; statistics: GroupStatistics }[]>
>();

/**
 * A group's judge and reviewers' statistics. They depend only on the group's items, and breakdowns often
 * form the same group (a single endpoint's group is every item; a declared grouping can repeat the
 * categories): such a group is computed once per report, its bootstrap being most of the report's time.
 */
function groupStatistics(items: readonly AgreementItem[], options: AgreementOptions, d: Declarations): GroupStatistics {
  let made = statisticsOfReport.get(d);
  if (!made) statisticsOfReport.set(d, (made = new Map()));
  const sameSize = made.get(items.length) ?? [];
  const same = sameSize.find((g) => g.items.every((item, i) => item === items[i]));
  if (same) return same.statistics;
  const b = humanBlock(oncePerTarget(items), (item, v) => d.binarise(item, v), "nominal", options, false);
  const statistics = {
    level: groupLevel(items, d),
    judge: groupBlock(items, options, d),
    humans: {
      n: b.n,
      values: { percentAgreement: b.values.percentAgreement ?? null, alpha: b.values.alpha ?? null },
      ci: {},
    },
  };
  made.set(items.length, [...sameSize, { items, statistics }]);
  return statistics;
}

/** The items grouped by one breakdown (a fixed one or a declared grouping), each group with its judge and reviewers' agreement and a link to its videos. */
export function breakdown(
  items: readonly AgreementItem[],
  by: string,
  input: AgreementInput,
  options: AgreementOptions,
  d: Declarations,
): BreakdownGroup[] {
  const groups = new Map<string, { label: string; items: AgreementItem[] }>();
  for (const item of items) {
    for (const { key, label } of groupKeys(item, by, d)) {
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { label, items: [] }));
      group.items.push(item);
    }
  }
  const endpointNames = new Map(input.runs.map((r) => [r.endpointId, r.endpointName]));
  return [...groups]
    .map(([key, group]) => ({
      key,
      label: by === "endpoint" ? (endpointNames.get(key) ?? key) : group.label,
      items: group.items.length,
      ...groupStatistics(group.items, options, d),
      link: groupLink(by, key, group.items, input),
    }))
    .sort(
      (a, b) =>
        (by === "category"
          ? d.order(a.key) - d.order(b.key)
          : groupingOrder(by, a.key, d) - groupingOrder(by, b.key, d)) || a.label.localeCompare(b.label),
    );
}

/** A declared grouping's values in their declared order, then per-video metrics in declaration order; 0 for the fixed breakdowns. */
function groupingOrder(by: string, key: string, d: Declarations): number {
  if ((BREAKDOWNS as readonly string[]).includes(by)) return 0;
  const values = d.tasks.flatMap((t) => t.groupings).find((g) => g.id === by)?.values ?? [];
  const at = values.findIndex((v) => v.id === key);
  return at >= 0 ? at : values.length + d.order(key);
}
