import { scaleBounds, type TaskDeclaration } from "@/lib/task-modules/task-declaration";
import { REVIEW_STATES, metricQueryKey } from "@/lib/videos/video-filter";
import { FILTER_INPUT, type FilterOption, FilterSelect } from "@/components/ui/filter-select";
import { SPAN_AUTHOR_FILTER_LABELS, SPAN_AUTHOR_FILTERS } from "@/lib/videos/span-author-filter";

const REVIEW_LABELS: Record<(typeof REVIEW_STATES)[number], string> = {
  unreviewed: "no reviews",
  reviewed: "reviewed",
  reviewed_by_me: "reviewed by me",
  not_reviewed_by_me: "not reviewed by me",
  disagreement: "a reviewer disagrees",
};

const rangeInput = `w-16 ${FILTER_INPUT}`;

/**
 * The fields of the video list's filter (lib/videos/video-filter.ts), for every GET form that filters
 * videos: the video list and the agreement dashboard show the same filters under the same names.
 */
export function VideoFilterFields({
  values,
  dimensions,
  models,
  runs,
  noRunLabel,
  searchInputId,
  task,
}: {
  /** The current query-string values by field name. */
  values: Record<string, string | undefined>;
  dimensions: string[];
  models: string[];
  runs: { id: string; label: string }[];
  /** What an empty run choice means on this page ("latest …", "every run"). */
  noRunLabel: string;
  searchInputId?: string;
  /** The task of the run the filter reads: its targets are the categories, its metrics the ranges. */
  task: TaskDeclaration;
}) {
  const value = (key: string) => values[key] ?? "";
  const choice = (label: string, name: string, options: readonly FilterOption[], anyLabel = "any") => (
    <FilterSelect key={name} label={label} name={name} defaultValue={value(name)} empty={anyLabel} options={options} />
  );
  return (
    <>
      <label className="flex flex-col gap-1">
        <span>Prompt contains</span>
        <input
          id={searchInputId}
          name="prompt"
          type="search"
          defaultValue={value("prompt")}
          placeholder={searchInputId ? "press / to search" : undefined}
          className={FILTER_INPUT}
        />
      </label>
      {choice("Dimension", "dimension", dimensions)}
      {choice("Model", "model", models)}
      {choice("Status", "status", [
        { value: "ready", label: "ready" },
        { value: "pending_extraction", label: "pending extraction" },
        { value: "failed", label: "failed" },
      ])}
      {/* Run names say what sets each run apart, so they are long: the select keeps a width the form can hold and
          its list shows them whole. */}
      <FilterSelect
        key="runId"
        label="Run"
        name="runId"
        defaultValue={value("runId")}
        empty={noRunLabel}
        options={runs.map((run) => ({ value: run.id, label: run.label }))}
        className="max-w-md"
      />
      <CategoryField task={task} value={value} />
      {task.metrics.map((metric) => (
        <MetricField key={metric.id} task={task} metric={metric} value={value} />
      ))}
      {choice("Reviewers' verdict", "humanVerdict", [
        // The task's verdict reads as what its positive value means (say, "hallucination").
        {
          value: "yes",
          label: `${task.metrics.find((m) => m.id === task.verdict?.metricId)?.positive.label ?? "positive"} (majority)`,
        },
        { value: "no", label: "none (majority)" },
      ])}
      {choice(
        "Review",
        "review",
        REVIEW_STATES.map((state) => ({ value: state, label: REVIEW_LABELS[state] })),
      )}
      {choice(
        "Spans",
        "spans",
        SPAN_AUTHOR_FILTERS.map((kind) => ({ value: kind, label: SPAN_AUTHOR_FILTER_LABELS[kind] })),
        "with or without",
      )}
    </>
  );
}

/** A metric's filter: a value range for a numeric metric, else a choice of its values (a verdict's positive one named for what it means). */
function MetricField({
  task,
  metric,
  value,
}: {
  task: TaskDeclaration;
  metric: TaskDeclaration["metrics"][number];
  value: (key: string) => string;
}) {
  if (metric.scale.kind === "numeric") {
    const min = metricQueryKey(task, metric.id, "min");
    const max = metricQueryKey(task, metric.id, "max");
    return (
      <RangeField
        label={metric.label}
        title={metric.definition}
        min={min}
        max={max}
        lower={metric.scale.min}
        upper={metric.scale.max}
        value={value}
      />
    );
  }
  const isVerdict = task.verdict?.metricId === metric.id;
  // The positive value reads as what it means ("hallucination"); a verdict's other value as "none".
  const options = metric.scale.values.map((v) => ({
    value: v.label,
    label:
      metric.positive.op === "==" && metric.positive.value === v.value
        ? metric.positive.label
        : isVerdict
          ? "none"
          : v.label,
  }));
  const name = metricQueryKey(task, metric.id, "is");
  return (
    <FilterSelect
      label={isVerdict ? "Judge verdict" : `Judge ${metric.label}`}
      name={name}
      defaultValue={value(name)}
      empty="any"
      options={options}
    />
  );
}

/** A metric's value range: two number inputs named `min` and `max`, bounded by the metric's scale. */
function RangeField({
  label,
  title,
  min,
  max,
  lower,
  upper,
  value,
}: {
  label: string;
  title: string;
  min: string;
  max: string;
  lower: number;
  upper: number;
  value: (key: string) => string;
}) {
  return (
    <fieldset className="flex flex-col gap-1" title={title}>
      <legend className="mb-1">{label}</legend>
      <div className="flex items-center gap-1">
        <input
          name={min}
          aria-label={`${label} min`}
          type="number"
          min={lower}
          max={upper}
          step="any"
          defaultValue={value(min)}
          className={rangeInput}
        />
        <span>–</span>
        <input
          name={max}
          aria-label={`${label} max`}
          type="number"
          min={lower}
          max={upper}
          step="any"
          defaultValue={value(max)}
          className={rangeInput}
        />
      </div>
    </fieldset>
  );
}

/** One category's worst score in a range, bounded by the widest of the targets' scales. */
function CategoryField({ task, value }: { task: TaskDeclaration; value: (key: string) => string }) {
  const categoryBounds =
    task.targets.length > 0
      ? task.targets
          .map((t) => scaleBounds(t.scale))
          .reduce((a, b) => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) }))
      : { min: 0, max: 0 };
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1">Category (worst score)</legend>
      <div className="flex items-center gap-1">
        <select name="category" aria-label="Category" defaultValue={value("category")} className={FILTER_INPUT}>
          <option value="">—</option>
          {task.targets.map((t) => (
            <option key={t.id} value={t.id} title={`${t.label}: ${t.definition}`}>
              {t.label !== t.id ? `${t.id} · ${t.label}` : t.id}
            </option>
          ))}
        </select>
        <input
          name="categoryMin"
          aria-label="Category min"
          type="number"
          min={categoryBounds.min}
          max={categoryBounds.max}
          step="any"
          defaultValue={value("categoryMin")}
          className={rangeInput}
        />
        <span>–</span>
        <input
          name="categoryMax"
          aria-label="Category max"
          type="number"
          min={categoryBounds.min}
          max={categoryBounds.max}
          step="any"
          defaultValue={value("categoryMax")}
          className={rangeInput}
        />
      </div>
    </fieldset>
  );
}
