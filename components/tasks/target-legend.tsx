"use client";

import { useId } from "react";
import type { TaskDeclaration } from "@/lib/task-modules/task-declaration";
import { meaningOf, metricsLine, targetSections, type CodeMeaning } from "@/lib/task-modules/task-display";

/**
 * A code with its name ("s7 · Motion and blur inconsistency"), and its definition one hover or one
 * Tab away: in the native `title` and in a tooltip shown on hover and on keyboard focus, tied to the
 * code by aria-describedby. An undeclared code shows as it is.
 */
export function CodeWithName({
  meaning,
  code,
  showName = true,
  className = "",
}: {
  meaning: CodeMeaning | null;
  /** Shown when the task declares nothing for the code. */
  code: string;
  /** False: only the code is shown; the name joins the definition in the tooltip. */
  showName?: boolean;
  className?: string;
}) {
  const tipId = useId();
  if (!meaning) return <span className={`font-mono ${className}`}>{code}</span>;
  const named = meaning.label !== meaning.id;
  return (
    <span className={`group relative inline-block ${className}`}>
      <span
        tabIndex={0}
        className="cursor-help rounded underline decoration-slate-400 decoration-dotted underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
        title={`${meaning.id}${named ? ` · ${meaning.label}` : ""}: ${meaning.definition}`}
        aria-describedby={tipId}
        data-testid="code-with-name"
        data-code={meaning.id}
      >
        <span className="font-mono">{meaning.id}</span>
        {showName && named && <span data-testid="code-name"> · {meaning.label}</span>}
      </span>
      <span
        role="tooltip"
        id={tipId}
        className="pointer-events-none invisible absolute top-full left-0 z-30 mt-1 w-72 rounded-md bg-slate-900 p-2 text-left text-xs font-normal whitespace-normal text-white normal-case opacity-0 shadow-lg transition-opacity group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
        data-testid="code-tooltip"
      >
        <b>
          {meaning.id}
          {named ? ` · ${meaning.label}` : ""}
        </b>
        : {meaning.definition}
      </span>
    </span>
  );
}

/** CodeWithName for a code of a task (a target or a metric id). */
export function TaskCode({
  task,
  code,
  showName = true,
  className,
}: {
  task: Pick<TaskDeclaration, "targets" | "metrics"> | null | undefined;
  code: string;
  showName?: boolean;
  className?: string;
}) {
  return <CodeWithName meaning={meaningOf(task, code)} code={code} showName={showName} className={className} />;
}

/**
 * Every code of a task with its name and definition, grouped by the task's first declared grouping,
 * then its headline metrics: a collapsible block under the heat map and beside the review controls.
 */
export function TargetLegend({
  task,
  open = false,
  title = "Legend: every code with its name and definition",
}: {
  task: TaskDeclaration;
  open?: boolean;
  title?: string;
}) {
  const sections = targetSections(task);
  return (
    <details
      className="rounded-md border border-slate-200 bg-white p-3 text-xs"
      open={open}
      data-testid="target-legend"
    >
      <summary className="cursor-pointer font-medium text-slate-700">{title}</summary>
      <div className="mt-2 flex flex-col gap-3">
        {sections.map((section) => (
          <section key={section.id} data-testid="legend-section">
            <h4 className="mb-1 font-medium text-slate-600">{section.label}</h4>
            <dl className="grid grid-cols-[minmax(6rem,max-content)_1fr] gap-x-3 gap-y-1">
              {section.targets.map((target) => (
                <div key={target.id} className="contents" data-testid="legend-entry" data-code={target.id}>
                  <dt className="font-medium">
                    <span className="font-mono">{target.id}</span> · {target.label}
                  </dt>
                  <dd className="text-slate-600" data-testid="legend-definition">
                    {target.definition}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        {task.groupings
          .filter((g) => !task.targets.some((t) => t.groups?.[g.id] !== undefined))
          .map((grouping) => (
            <section key={grouping.id} data-testid="legend-grouping">
              <h4 className="mb-1 font-medium text-slate-600">{grouping.label} (results group by it)</h4>
              <p className="text-slate-600">
                {grouping.values.map((v) => (v.label === v.id ? v.id : `${v.id} · ${v.label}`)).join(", ")}
              </p>
            </section>
          ))}
        {task.metrics.length > 0 && (
          <section data-testid="legend-metrics">
            <h4 className="mb-1 font-medium text-slate-600">Per {task.subject === "video" ? "video" : "item"}</h4>
            <dl className="grid grid-cols-[minmax(6rem,max-content)_1fr] gap-x-3 gap-y-1">
              {task.metrics.map((metric) => (
                <div key={metric.id} className="contents" data-testid="legend-metric" data-code={metric.id}>
                  <dt className="font-medium">
                    <span className="font-mono">{metric.id}</span>
                    {metric.label !== metric.id ? ` · ${metric.label}` : ""}
                  </dt>
                  <dd className="text-slate-600">
                    {metric.definition} <span className="text-slate-500">{metric.aggregation}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        )}
      </div>
    </details>
  );
}

/** "I 1 · S 2 · D 3 · overall 66 · hallucination no": the declared metrics, each with its definition in its title. */
export function MetricsLine({ task, values }: { task: TaskDeclaration; values: Record<string, number | null> }) {
  return (
    <>
      {metricsLine(task, values).map((metric, i) => (
        <span key={metric.id}>
          {i > 0 && " · "}
          <abbr title={`${task.metrics[i]!.label}: ${task.metrics[i]!.definition}`}>{metric.label}</abbr> {metric.text}
        </span>
      ))}
    </>
  );
}
