import { REVIEW_STATES, SCORE_CATEGORIES } from "@/lib/videos/video-filter";

const REVIEW_LABELS: Record<(typeof REVIEW_STATES)[number], string> = {
  unreviewed: "no reviews",
  reviewed: "reviewed",
  reviewed_by_me: "reviewed by me",
  not_reviewed_by_me: "not reviewed by me",
  disagreement: "a reviewer disagrees",
};

const input = "rounded-md border border-slate-300 px-2 py-1.5";
const rangeInput = "w-16 rounded-md border border-slate-300 px-2 py-1.5";

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
}: {
  /** The current query-string values by field name. */
  values: Record<string, string | undefined>;
  dimensions: string[];
  models: string[];
  runs: { id: string; label: string }[];
  /** What an empty run choice means on this page ("latest …", "every run"). */
  noRunLabel: string;
  searchInputId?: string;
}) {
  const value = (key: string) => values[key] ?? "";
  const range = (label: string, min: string, max: string, limit: number) => (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1">{label}</legend>
      <div className="flex items-center gap-1">
        <input name={min} aria-label={`${label} min`} type="number" min={0} max={limit} step="any" defaultValue={value(min)} className={rangeInput} />
        <span>–</span>
        <input name={max} aria-label={`${label} max`} type="number" min={0} max={limit} step="any" defaultValue={value(max)} className={rangeInput} />
      </div>
    </fieldset>
  );
  const choice = (label: string, name: string, options: readonly (string | { value: string; label: string })[], anyLabel = "any") => (
    <label className="flex flex-col gap-1">
      <span>{label}</span>
      <select name={name} defaultValue={value(name)} className={input}>
        <option value="">{anyLabel}</option>
        {options.map((option) =>
          typeof option === "string" ? (
            <option key={option}>{option}</option>
          ) : (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ),
        )}
      </select>
    </label>
  );
  return (
    <>
      <label className="flex flex-col gap-1">
        <span>Prompt contains</span>
        <input id={searchInputId} name="prompt" type="search" defaultValue={value("prompt")} placeholder={searchInputId ? "press / to search" : undefined} className={input} />
      </label>
      {choice("Dimension", "dimension", dimensions)}
      {choice("Model", "model", models)}
      {choice("Status", "status", [
        { value: "ready", label: "ready" },
        { value: "pending_extraction", label: "pending extraction" },
        { value: "failed", label: "failed" },
      ])}
      {choice("Run", "runId", runs.map((run) => ({ value: run.id, label: run.label })), noRunLabel)}
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1">Category (worst score)</legend>
        <div className="flex items-center gap-1">
          <select name="category" aria-label="Category" defaultValue={value("category")} className={input}>
            <option value="">—</option>
            {SCORE_CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <input name="categoryMin" aria-label="Category min" type="number" min={0} max={10} step="any" defaultValue={value("categoryMin")} className={rangeInput} />
          <span>–</span>
          <input name="categoryMax" aria-label="Category max" type="number" min={0} max={10} step="any" defaultValue={value("categoryMax")} className={rangeInput} />
        </div>
      </fieldset>
      {range("S", "sMin", "sMax", 10)}
      {range("D", "dMin", "dMax", 10)}
      {range("I", "iMin", "iMax", 10)}
      {range("Overall", "overallMin", "overallMax", 100)}
      {choice("Judge verdict", "verdict", [
        { value: "yes", label: "hallucination" },
        { value: "no", label: "none" },
      ])}
      {choice("Reviewers' verdict", "humanVerdict", [
        { value: "yes", label: "hallucination (majority)" },
        { value: "no", label: "none (majority)" },
      ])}
      {choice("Review", "review", REVIEW_STATES.map((state) => ({ value: state, label: REVIEW_LABELS[state] })))}
    </>
  );
}
