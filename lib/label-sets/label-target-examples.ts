/**
 * Example `target` cells of a generic label file for the import form, one per task of the catalogue given (its first
 * reviewed metric, else its first target), written as generic-labels.ts reads them: the id alone, or
 * `<task>:<id>` where several tasks declare it. Browser-safe: it reads only the declarations.
 */

import type { TaskDeclaration } from "../task-modules/task-declaration";

const labelledIds = (task: TaskDeclaration) => [
  ...task.targets.map((t) => t.id),
  ...task.metrics.filter((m) => m.reviewed).map((m) => m.id),
];

export function exampleLabelTargets(tasks: readonly TaskDeclaration[]): string[] {
  return tasks.flatMap((task) => {
    const id = task.metrics.find((m) => m.reviewed)?.id ?? task.targets[0]?.id;
    if (id === undefined) return [];
    const declared = tasks.flatMap((t) => labelledIds(t).filter((other) => other === id)).length;
    return [declared > 1 ? `${task.id}:${id}` : id];
  });
}

/**
 * What a wide file's column can be mapped to in the import form: every task's targets and reviewed metrics (a
 * rubric task's criteria among them), as `<task>:<id>` with the task's and the target's names.
 */
export function labelTargetChoices(tasks: readonly TaskDeclaration[]): { value: string; label: string }[] {
  return tasks.flatMap((task) => [
    ...task.targets.map((t) => ({
      value: `${task.id}:${t.id}`,
      label: `${task.label}: ${t.label}${task.presence?.of.includes(t.id) ? " (present/absent)" : ""}`,
    })),
    ...task.metrics
      .filter((m) => m.reviewed)
      .map((m) => ({ value: `${task.id}:${m.id}`, label: `${task.label}: ${m.label}` })),
  ]);
}
