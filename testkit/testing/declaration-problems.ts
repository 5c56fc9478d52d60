import { disagreementGapOf, scaleViolation, type TaskDeclaration } from "../../lib/task-modules/task-declaration";

/**
 * Problems in a declaration, so a task that declares something inconsistent fails its test rather
 * than a page: duplicate ids, empty scales, a positive rule or gap that cannot apply, a verdict
 * metric that does not exist, a group value that is not declared.
 */
export function declarationProblems(task: TaskDeclaration): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const all = [
    ...task.targets.map((t) => ({ ...t, kind: "target" })),
    ...task.metrics.map((m) => ({ ...m, kind: "metric" })),
  ];
  for (const entry of all) {
    if (ids.has(entry.id)) problems.push(`${entry.kind} id "${entry.id}" is declared twice`);
    ids.add(entry.id);
    if (!entry.label.trim()) problems.push(`${entry.id}: empty label`);
    if (!entry.definition.trim()) problems.push(`${entry.id}: empty definition`);
    const scale = entry.scale;
    if (scale.kind === "numeric" && !(scale.max > scale.min)) problems.push(`${entry.id}: max must exceed min`);
    if (scale.kind === "categorical" && scale.values.length < 2)
      problems.push(`${entry.id}: a categorical scale needs two values`);
    if (scale.kind === "categorical" && entry.level !== "nominal" && entry.level !== "ordinal")
      problems.push(`${entry.id}: a categorical scale is nominal or ordinal`);
    if (entry.positive.op === "==" && scaleViolation(entry, entry.positive.value) !== null)
      problems.push(`${entry.id}: the positive value is not on the scale`);
    if (disagreementGapOf(entry) <= 0) problems.push(`${entry.id}: the disagreement gap must be positive`);
  }
  if (task.verdict && !task.metrics.some((m) => m.id === task.verdict!.metricId))
    problems.push(`verdict metric "${task.verdict.metricId}" is not declared`);
  for (const alias of task.queryAliases ?? []) {
    const metric = task.metrics.find((m) => m.id === alias.metric);
    if (!metric) problems.push(`query alias "${alias.key}": metric "${alias.metric}" is not declared`);
    else if ((alias.bound === "is") !== (metric.scale.kind === "categorical"))
      problems.push(`query alias "${alias.key}": "${alias.bound}" does not fit ${alias.metric}'s scale`);
  }
  for (const m of task.metrics)
    if (m.sweep && m.positive.op === "==") problems.push(`${m.id}: a swept metric needs a ">=" or "<" positive rule`);
  for (const param of task.thresholdParams ?? []) {
    for (const id of param.ids)
      if (!all.some((e) => e.id === id)) problems.push(`threshold parameter "${param.key}": "${id}" is not declared`);
  }
  for (const m of task.metrics)
    if (!/^[A-Za-z0-9_]{1,32}$/.test(m.id))
      problems.push(`metric id "${m.id}" must be 1–32 letters, digits or _ (it is a query key)`);
  if (task.presence) {
    const { of, absentValue, defaultThreshold } = task.presence;
    if (task.subject !== "video") problems.push("presence targets are per video: the task's subject must be the video");
    if (of.length === 0) problems.push("presence: name the graded targets it is of");
    for (const id of of) {
      const graded = task.targets.find((t) => t.id === id);
      if (!graded) problems.push(`presence: "${id}" is not a declared target`);
      else if (graded.scale.kind !== "numeric") problems.push(`presence: "${id}" is not graded on a numeric scale`);
      else {
        if (scaleViolation(graded, absentValue) !== null)
          problems.push(`presence: the absent value ${absentValue} is not on ${id}'s scale`);
        if (defaultThreshold < graded.scale.min || defaultThreshold > graded.scale.max)
          problems.push(`presence: the default threshold ${defaultThreshold} is outside ${id}'s scale`);
        if (graded.higherIsBetter)
          problems.push(`presence: "${id}" grades how good something is, not how strongly it is present`);
      }
    }
    if (new Set(of).size !== of.length) problems.push("presence: a target is named twice");
  }
  for (const target of task.targets) {
    for (const [grouping, value] of Object.entries(target.groups ?? {})) {
      const declared = task.groupings.find((g) => g.id === grouping);
      if (!declared) problems.push(`${target.id}: grouping "${grouping}" is not declared`);
      else if (!declared.values.some((v) => v.id === value))
        problems.push(`${target.id}: "${value}" is not a value of grouping "${grouping}"`);
    }
  }
  return problems;
}
