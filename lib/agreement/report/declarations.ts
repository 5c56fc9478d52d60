import {
  type JudgedDeclaration,
  judgmentDeclaration,
  SCORE_TARGET_TYPE,
  thresholdOverride,
} from "../../reviews/judgment-target";
import { isLabelSetReviewerId } from "../../label-sets/label-set-reviewer";
import {
  binariseValue,
  consensusValue,
  PRESENCE_TARGET_TYPE,
  type TaskDeclaration,
} from "../../task-modules/task-declaration";
import type { MeasurementLevel } from "../../stats/krippendorff-alpha";
import type { AgreementItem, AgreementOptions } from "../types";

export type Binary = 0 | 1;
export type ThresholdOptions = Pick<AgreementOptions, "threshold" | "overallThreshold" | "thresholds">;

/** Declarations of the report's items, looked up once per (task, target type, target). */
export class Declarations {
  private readonly byKey = new Map<string, JudgedDeclaration>();
  constructor(
    readonly tasks: readonly TaskDeclaration[],
    private readonly options: ThresholdOptions,
    /** The human side of the confusion, breakdowns, sweep and scatter: the reviewers' consensus, or the adjudicated gold. */
    private readonly truthSource: "consensus" | "gold" = "consensus",
  ) {}

  private readonly ofItem = new WeakMap<object, JudgedDeclaration>();
  private readonly consensusOfItem = new WeakMap<AgreementItem, number | null>();
  private readonly overrides = new Map<JudgedDeclaration, number | undefined>();

  of(item: Pick<AgreementItem, "taskId" | "targetType" | "category">): JudgedDeclaration {
    const cached = this.ofItem.get(item);
    if (cached) return cached;
    const key = `${item.taskId ?? ""}\u0000${item.targetType}\u0000${item.category}`;
    let declaration = this.byKey.get(key);
    if (!declaration) {
      const own = item.taskId ? this.tasks.filter((t) => t.id === item.taskId) : [];
      const byCategory = item.targetType === SCORE_TARGET_TYPE || item.targetType === PRESENCE_TARGET_TYPE;
      declaration = judgmentDeclaration(
        item.targetType,
        byCategory ? item.category : null,
        own.length ? own : this.tasks,
      );
      this.byKey.set(key, declaration);
    }
    this.ofItem.set(item, declaration);
    return declaration;
  }

  binarise(item: AgreementItem, value: number): Binary {
    const declaration = this.of(item);
    if (!this.overrides.has(declaration))
      this.overrides.set(
        declaration,
        thresholdOverride(declaration, this.options as ThresholdOptions & Record<string, unknown>, this.tasks),
      );
    return binariseValue(declaration.positive, value, this.overrides.get(declaration));
  }

  /** The reviewers' consensus (an item's ratings do not change while the report is made). */
  consensus(item: AgreementItem): number | null {
    if (this.consensusOfItem.has(item)) return this.consensusOfItem.get(item)!;
    // The live reviewers' consensus: label sets are annotators beside them, compared on their own.
    const value = consensusValue(
      this.of(item).level,
      item.ratings.filter((r) => !isLabelSetReviewerId(r.reviewerId)).map((r) => r.value),
    );
    this.consensusOfItem.set(item, value);
    return value;
  }

  /** The human value the judge is measured against in the confusion, breakdowns, sweep and scatter. */
  truth(item: AgreementItem): number | null {
    return this.truthSource === "gold" ? (item.gold ?? null) : this.consensus(item);
  }

  /** Target types in report order: scores, then each task's verdict metric, then its other reviewed metrics. */
  targetTypes(): string[] {
    const types = [SCORE_TARGET_TYPE];
    for (const task of this.tasks) {
      const reviewed = task.metrics.filter((m) => m.reviewed).map((m) => m.id);
      const verdict = task.verdict?.metricId;
      for (const id of [...reviewed.filter((m) => m === verdict), ...reviewed.filter((m) => m !== verdict)])
        if (!types.includes(id)) types.push(id);
    }
    if (this.tasks.some((t) => t.presence)) types.push(PRESENCE_TARGET_TYPE);
    return types;
  }

  /** A target type's measurement level: its metric's, or (scores) the level of the items' targets, ordinal when they differ. */
  level(type: string, items: readonly AgreementItem[]): MeasurementLevel {
    if (type === PRESENCE_TARGET_TYPE) return "nominal";
    if (type !== SCORE_TARGET_TYPE) return this.of({ targetType: type, category: type }).level;
    const levels = new Set(items.filter((i) => i.targetType === type).map((i) => this.of(i).level));
    return levels.size === 1 ? [...levels][0]! : "ordinal";
  }

  /** Position of a target or metric id in its task's declaration: targets first, then the verdict, then other metrics. */
  order(id: string): number {
    let base = 0;
    for (const task of this.tasks) {
      const ids = [
        ...task.targets.map((t) => t.id),
        ...(task.verdict ? [task.verdict.metricId] : []),
        ...task.metrics.map((m) => m.id).filter((m) => m !== task.verdict?.metricId),
      ];
      const at = ids.indexOf(id);
      if (at >= 0) return base + at;
      base += ids.length;
    }
    return base;
  }
}
