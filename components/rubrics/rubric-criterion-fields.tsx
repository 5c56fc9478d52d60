// One criterion of the rubric editor's form: its id, name, type and definition, then what its type needs (a numeric
// range, categorical labels), its options (direction, aggregation, presence rule, where it fails) and the presence
// rule's values.
import type { RubricProblem } from "@/lib/rubrics/rubric-definition";
import type { CriterionDraft, CriterionType } from "./rubric-draft";
import { Field, FieldProblems, input } from "./rubric-form-fields";

interface PartProps {
  n: number;
  criterion: CriterionDraft;
  problems: RubricProblem[];
  at: (field: string) => string;
  onChange: (patch: Partial<CriterionDraft>) => void;
}

export function CriterionFields({
  index,
  criterion: c,
  problems,
  onChange,
  onRemove,
}: {
  index: number;
  criterion: CriterionDraft;
  problems: RubricProblem[];
  onChange: (patch: Partial<CriterionDraft>) => void;
  onRemove: (() => void) | null;
}) {
  const at = (field: string) => `criteria.${index}.${field}`;
  const n = index + 1;
  const part: PartProps = { n, criterion: c, problems, at, onChange };
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-slate-200 p-3" data-testid="rubric-criterion">
      <legend className="px-1 text-xs font-medium text-slate-600">Criterion {n}</legend>
      <div className="grid gap-2 sm:grid-cols-[10rem_1fr_9rem]">
        <Field label={`Criterion ${n} id`} problems={problems} path={at("id")}>
          <input className={`${input} font-mono`} value={c.id} onChange={(e) => onChange({ id: e.target.value })} />
        </Field>
        <Field label={`Criterion ${n} name`} problems={problems} path={at("name")}>
          <input className={input} value={c.name} onChange={(e) => onChange({ name: e.target.value })} />
        </Field>
        <Field label={`Criterion ${n} type`} problems={problems} path={at("type")}>
          <select
            className={input}
            value={c.type}
            onChange={(e) => onChange({ type: e.target.value as CriterionType })}
          >
            <option value="numeric">numeric</option>
            <option value="categorical">categorical</option>
            <option value="boolean">boolean</option>
          </select>
        </Field>
      </div>
      <Field label={`Criterion ${n} definition`} problems={problems} path={at("definition")}>
        <textarea
          className={input}
          rows={2}
          value={c.definition}
          onChange={(e) => onChange({ definition: e.target.value })}
        />
      </Field>
      {c.type === "numeric" && <NumericRange {...part} />}
      {c.type === "categorical" && <CategoricalLabels {...part} />}
      <CriterionOptions {...part} onRemove={onRemove} />
      <FieldProblems problems={problems} path={at("aggregation")} />
      {c.type === "numeric" && c.presence && <PresenceValues {...part} />}
      {c.presence && <FieldProblems problems={problems} path={at("presence")} exact />}
      {!c.presence && c.type !== "numeric" && <FieldProblems problems={problems} path={at("presence")} exact />}
      <FieldProblems problems={problems} path={at("positiveAtLeast")} />
      <FieldProblems problems={problems} path={at("positiveLabel")} />
      <FieldProblems problems={problems} path={at("localize")} />
    </fieldset>
  );
}

function NumericRange({ n, criterion: c, problems, at, onChange }: PartProps) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label={`Criterion ${n} min`} problems={problems} path={at("min")}>
        <input
          className={`${input} w-20`}
          inputMode="decimal"
          value={c.min}
          onChange={(e) => onChange({ min: e.target.value })}
        />
      </Field>
      <Field label={`Criterion ${n} max`} problems={problems} path={at("max")}>
        <input
          className={`${input} w-20`}
          inputMode="decimal"
          value={c.max}
          onChange={(e) => onChange({ max: e.target.value })}
        />
      </Field>
      <Field label={`Criterion ${n} step`} problems={problems} path={at("step")}>
        <input
          className={`${input} w-20`}
          inputMode="decimal"
          value={c.step}
          onChange={(e) => onChange({ step: e.target.value })}
        />
      </Field>
    </div>
  );
}

function CategoricalLabels({ n, criterion: c, problems, at, onChange }: PartProps) {
  return (
    <div className="flex flex-col gap-2">
      {c.labels.map((l, j) => (
        <div key={j} className="grid gap-2 sm:grid-cols-[10rem_1fr_auto]">
          <input
            className={input}
            aria-label={`Criterion ${n} label ${j + 1}`}
            value={l.label}
            onChange={(e) =>
              onChange({ labels: c.labels.map((x, k) => (k === j ? { ...x, label: e.target.value } : x)) })
            }
          />
          <input
            className={input}
            aria-label={`Criterion ${n} label ${j + 1} definition`}
            placeholder="what this label means"
            value={l.definition}
            onChange={(e) =>
              onChange({ labels: c.labels.map((x, k) => (k === j ? { ...x, definition: e.target.value } : x)) })
            }
          />
          <button
            type="button"
            className="text-xs text-red-700 underline"
            onClick={() => onChange({ labels: c.labels.filter((_, k) => k !== j) })}
          >
            Remove label
          </button>
        </div>
      ))}
      <FieldProblems problems={problems} path={at("labels")} />
      <div className="flex items-center gap-3">
        <button
          type="button"
          className="self-start rounded border border-slate-300 px-2 py-0.5 text-xs"
          onClick={() => onChange({ labels: [...c.labels, { label: "", definition: "" }] })}
        >
          Add label
        </button>
        <label className="flex items-center gap-1 text-xs">
          <input type="checkbox" checked={c.ordered} onChange={(e) => onChange({ ordered: e.target.checked })} />
          Ordered (written worst to best)
        </label>
      </div>
    </div>
  );
}

/** Which way is better, how a criterion's per-scope answers combine, whether it has a presence rule; remove it. */
function CriterionOptions({ n, criterion: c, onChange, onRemove }: PartProps & { onRemove: (() => void) | null }) {
  return (
    <div className="flex flex-wrap items-center gap-4 text-xs">
      <label className="flex items-center gap-1">
        <input
          type="checkbox"
          checked={c.higherIsBetter}
          onChange={(e) => onChange({ higherIsBetter: e.target.checked })}
        />
        {c.type === "boolean"
          ? "Yes is better"
          : c.type === "categorical"
            ? "Later labels are better"
            : "Higher is better"}
      </label>
      <label className="flex items-center gap-1">
        Per-scope aggregation
        <select
          className="rounded border border-slate-300 bg-white px-1 py-0.5"
          value={c.aggregation}
          onChange={(e) => onChange({ aggregation: e.target.value as CriterionDraft["aggregation"] })}
        >
          <option value="">default</option>
          <option value="mean">mean</option>
          <option value="max">max</option>
          <option value="min">min</option>
          <option value="majority">majority</option>
        </select>
      </label>
      {c.type === "numeric" && (
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={c.presence} onChange={(e) => onChange({ presence: e.target.checked })} />
          Presence rule
        </label>
      )}
      <label
        className="flex items-center gap-1"
        title="In a video run: criteria shown otherwise than the rubric's frames are judged in a call of their own"
      >
        In a video run, frames
        <select
          className="rounded border border-slate-300 bg-white px-1 py-0.5"
          value={c.input}
          onChange={(e) => onChange({ input: e.target.value as CriterionDraft["input"] })}
          data-testid={`criterion-${n}-input`}
        >
          <option value="">as the rubric&apos;s</option>
          <option value="video">as one video</option>
          <option value="images">as still images</option>
        </select>
      </label>
      <label className="flex items-center gap-1" title="The judge names the frames where it fails: the run's spans">
        <input type="checkbox" checked={c.localize} onChange={(e) => onChange({ localize: e.target.checked })} />
        Ask where it fails
      </label>
      {onRemove && (
        <button type="button" className="ml-auto text-red-700 underline" onClick={onRemove}>
          Remove criterion {n}
        </button>
      )}
    </div>
  );
}

function PresenceValues({ n, criterion: c, problems, at, onChange }: PartProps) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label={`Criterion ${n} present at or above`} problems={problems} path={at("presence.threshold")}>
        <input
          className={`${input} w-20`}
          inputMode="decimal"
          value={c.presenceThreshold}
          onChange={(e) => onChange({ presenceThreshold: e.target.value })}
        />
      </Field>
      <Field label={`Criterion ${n} value when absent`} problems={problems} path={at("presence.absentValue")}>
        <input
          className={`${input} w-20`}
          inputMode="decimal"
          value={c.presenceAbsentValue}
          onChange={(e) => onChange({ presenceAbsentValue: e.target.value })}
        />
      </Field>
    </div>
  );
}
