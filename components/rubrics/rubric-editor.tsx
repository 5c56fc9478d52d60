"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState, type ReactNode } from "react";
import { Markdown } from "@/components/markdown";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import {
  RUBRIC_VARIABLES,
  rubricProblems,
  type RubricDefinition,
  type RubricProblem,
} from "@/lib/rubrics/rubric-definition";
import { framesText, renderRubricPrompt } from "@/lib/rubrics/rubric-prompt";
import {
  definitionInputOf,
  draftOf,
  emptyDraft,
  newCriterion,
  type CriterionDraft,
  type CriterionType,
  type FramesMode,
  type RubricDraft,
} from "./rubric-draft";
import { RubricVideoPreview, type PreviewChoices } from "./rubric-video-preview";

const input = "w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm disabled:bg-slate-50";
const labelText = "text-xs font-medium text-slate-700";

const FRAMES_MODES: { mode: FramesMode; label: string }[] = [
  { mode: "uniform", label: "Uniform frames, one call" },
  { mode: "key_frames", label: "All key frames, one call" },
  { mode: "each_key_frame", label: "Each key frame is a scope" },
  { mode: "each_cluster", label: "Each cluster is a scope" },
];

const VARIABLE_HELP: Record<(typeof RUBRIC_VARIABLES)[number], string> = {
  prompt: "the video's generation prompt",
  criteria: "each criterion with its definition and scale",
  frames: "what the attached images are, in order",
  guidelines: "the guidelines above",
};

/** The sample the live preview renders the prompt with (the real values come from a video: "Preview with a video"). */
const SAMPLE_PROMPT = "A red ball rolls down a wooden ramp and bounces twice.";

function sampleFrames(definition: RubricDefinition): string {
  const frames = definition.frames;
  const count =
    frames.mode === "uniform"
      ? frames.count
      : frames.mode === "key_frames"
        ? 4
        : frames.mode === "each_key_frame"
          ? 1
          : 3;
  const what =
    frames.mode === "uniform"
      ? "uniformly spaced frames"
      : frames.mode === "key_frames"
        ? "key frames"
        : frames.mode === "each_key_frame"
          ? "key frame"
          : "frames of one cluster";
  return framesText(
    Array.from({ length: count }, (_, i) => ({
      timestampS: ((i + 0.5) * 5) / count,
      isKeyFrame: frames.mode !== "uniform",
    })),
    what,
  );
}

/** Problems at a field (its path, or a path inside it). */
function problemsAt(problems: RubricProblem[], path: string): RubricProblem[] {
  return problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));
}

function FieldProblems({
  problems,
  path,
  exact = false,
}: {
  problems: RubricProblem[];
  path: string;
  exact?: boolean;
}) {
  const here = exact ? problems.filter((p) => p.path === path) : problemsAt(problems, path);
  if (here.length === 0) return null;
  return (
    <ul className="text-xs text-red-700" data-testid="field-problem" data-path={path}>
      {here.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}

function Field({
  label,
  children,
  problems,
  path,
  exact,
}: {
  label: string;
  children: ReactNode;
  problems: RubricProblem[];
  path: string;
  exact?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label className="flex flex-col gap-1">
        <span className={labelText}>{label}</span>
        {children}
      </label>
      <FieldProblems problems={problems} path={path} exact={exact} />
    </div>
  );
}

export interface EditedTask {
  id: string;
  version: number;
  definition: RubricDefinition;
}

/**
 * The form of a rubric task (new, or the next version of one) with its live preview beside it: the problems the
 * server would answer, each at its field, and the prompt rendered with a sample, computed in the browser by the
 * same code the server checks and renders with. Read-only for a member who may not edit.
 */
export function RubricEditor({
  projectId,
  task,
  canManage,
  preview,
  onClose,
}: {
  projectId: string;
  task: EditedTask | null;
  canManage: boolean;
  preview: PreviewChoices | null;
  onClose: () => void;
}) {
  const router = useRouter();
  const [draft, setDraft] = useState<RubricDraft>(() => (task ? draftOf(task.definition) : emptyDraft()));
  const definitionInput = useMemo(() => definitionInputOf(draft), [draft]);
  const { definition, problems } = useMemo(() => rubricProblems(definitionInput), [definitionInput]);
  const [serverProblems, setServerProblems] = useState<RubricProblem[]>([]);
  const [saved, setSaved] = useState<string | null>(null);
  const shown = problems.length ? problems : serverProblems;

  const save = useMutation({
    mutationFn: () =>
      task
        ? apiFetch<{ version: number; created: boolean }>(`/api/v1/rubric-tasks/${task.id}`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ definition: definitionInput }),
          })
        : postJson<{ id: string; version: number }>(`/api/v1/projects/${projectId}/rubric-tasks`, {
            definition: definitionInput,
          }).then((r) => ({ ...r, created: true })),
    onMutate: () => {
      setServerProblems([]);
      setSaved(null);
    },
    onSuccess: (result) => {
      setSaved(
        task
          ? result.created
            ? `Saved as version ${result.version}.`
            : `Unchanged: still version ${result.version}.`
          : "Created (version 1).",
      );
      router.refresh();
      if (!task) onClose();
    },
    onError: (error) => {
      const found =
        error instanceof ApiError
          ? (error.body as { error?: { details?: { problems?: RubricProblem[] } } } | null)?.error?.details?.problems
          : undefined;
      if (found?.length) setServerProblems(found);
    },
  });

  const set = <K extends keyof RubricDraft>(key: K, value: RubricDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setCriterion = (index: number, patch: Partial<CriterionDraft>) =>
    setDraft((d) => ({ ...d, criteria: d.criteria.map((c, i) => (i === index ? { ...c, ...patch } : c)) }));
  // An item's fields are shown as ‹field› in the form's preview; "Preview with a video" fills them from a real item.
  const sampleItem =
    definition?.subject.kind === "item"
      ? Object.fromEntries(definition.subject.fields.map((f) => [f.id, `‹${f.label}›`]))
      : {};
  const renderedPrompt = definition
    ? renderRubricPrompt(definition, { prompt: SAMPLE_PROMPT, frames: sampleFrames(definition), item: sampleItem })
    : null;
  const title = task ? `${task.definition.name} · version ${task.version}` : "New rubric task";

  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="rubric-editor"
      aria-label={title}
    >
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-slate-800">{title}</h2>
        <button type="button" className="text-sm text-indigo-700 underline" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="grid gap-6 xl:grid-cols-2">
        <form
          className="flex min-w-0 flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!definition) return;
            save.mutate();
          }}
        >
          <fieldset disabled={!canManage} className="flex flex-col gap-4">
            <Field label="Name" problems={shown} path="name">
              <input className={input} value={draft.name} onChange={(e) => set("name", e.target.value)} />
            </Field>
            <Field label="Description" problems={shown} path="description">
              <textarea
                className={input}
                rows={2}
                value={draft.description}
                onChange={(e) => set("description", e.target.value)}
              />
            </Field>
            <Field label="Guidelines (Markdown)" problems={shown} path="guidelines">
              <textarea
                className={`${input} font-mono`}
                rows={4}
                value={draft.guidelines}
                onChange={(e) => set("guidelines", e.target.value)}
              />
            </Field>

            <div className="flex flex-wrap items-end gap-3 rounded border border-slate-200 p-3">
              <Field label="Subject" problems={shown} path="subject.kind">
                <select
                  className={input}
                  value={draft.subjectKind}
                  onChange={(e) => set("subjectKind", e.target.value as RubricDraft["subjectKind"])}
                  data-testid="rubric-subject"
                >
                  <option value="video">each video</option>
                  <option value="item">each item of an item set</option>
                </select>
              </Field>
              {draft.subjectKind === "item" && (
                <Field
                  label='Item fields (ids, comma-separated; "?" after an optional one)'
                  problems={shown}
                  path="subject.fields"
                >
                  <input
                    className={`${input} w-72`}
                    value={draft.itemFields}
                    placeholder="text, reference?"
                    onChange={(e) => set("itemFields", e.target.value)}
                    data-testid="rubric-item-fields"
                  />
                </Field>
              )}
            </div>

            <div className="flex flex-col gap-2 rounded border border-slate-200 p-3">
              <h3 className="text-sm font-semibold text-slate-800">Frames</h3>
              <div className="flex flex-wrap items-end gap-3">
                <Field label="Frames mode" problems={shown} path="frames.mode">
                  <select
                    className={input}
                    value={draft.framesMode}
                    onChange={(e) => set("framesMode", e.target.value as FramesMode)}
                  >
                    {FRAMES_MODES.map((m) => (
                      <option key={m.mode} value={m.mode}>
                        {m.label}
                      </option>
                    ))}
                  </select>
                </Field>
                {draft.framesMode === "uniform" && (
                  <Field label="Frame count" problems={shown} path="frames.count">
                    <input
                      className={`${input} w-24`}
                      inputMode="numeric"
                      value={draft.framesCount}
                      onChange={(e) => set("framesCount", e.target.value)}
                    />
                  </Field>
                )}
                <Field label="Longest side (px, optional)" problems={shown} path="frames.longestSide">
                  <input
                    className={`${input} w-32`}
                    inputMode="numeric"
                    value={draft.longestSide}
                    onChange={(e) => set("longestSide", e.target.value)}
                  />
                </Field>
              </div>
              <FieldProblems problems={shown} path="frames" exact />
            </div>

            <div className="flex flex-col gap-3" data-testid="rubric-criteria">
              <h3 className="text-sm font-semibold text-slate-800">Criteria</h3>
              <FieldProblems problems={shown} path="criteria" exact />
              {draft.criteria.map((c, i) => (
                <CriterionFields
                  key={c.key}
                  index={i}
                  criterion={c}
                  problems={shown}
                  onChange={(patch) => setCriterion(i, patch)}
                  onRemove={
                    canManage && draft.criteria.length > 1
                      ? () =>
                          set(
                            "criteria",
                            draft.criteria.filter((_, j) => j !== i),
                          )
                      : null
                  }
                />
              ))}
              {canManage && (
                <button
                  type="button"
                  className="self-start rounded border border-slate-300 px-2 py-1 text-sm"
                  onClick={() => set("criteria", [...draft.criteria, newCriterion(draft.criteria.length)])}
                >
                  Add criterion
                </button>
              )}
            </div>

            <Field label="Prompt template" problems={shown} path="prompt">
              <textarea
                className={`${input} font-mono`}
                rows={8}
                value={draft.prompt}
                onChange={(e) => set("prompt", e.target.value)}
              />
            </Field>
            <div className="text-xs text-slate-600" data-testid="rubric-variables">
              Variables:{" "}
              {RUBRIC_VARIABLES.map((v, i) => (
                <span key={v}>
                  {i > 0 && "; "}
                  <code>{`{{${v}}}`}</code> {VARIABLE_HELP[v]}
                </span>
              ))}
              {draft.subjectKind === "item" && (
                <>
                  ; <code>{"{{item.<field>}}"}</code> each item field&apos;s value
                </>
              )}
              . FrameJury adds the answer format itself, written from the criteria.
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={draft.reasons} onChange={(e) => set("reasons", e.target.checked)} />
              Ask for reasons (one sentence per criterion; longer answers cost more)
            </label>
            {draft.examples && draft.examples.length > 0 && (
              <p className="text-sm text-slate-600" data-testid="rubric-examples">
                This version shows the judge {draft.examples.length} few-shot example
                {draft.examples.length === 1 ? "" : "s"} (labelled videos with their frames, chosen by an alignment);
                saving an edit keeps them.
              </p>
            )}
          </fieldset>

          {canManage && (
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="submit"
                className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
                disabled={!definition || save.isPending}
              >
                {save.isPending ? "Saving…" : task ? "Save as a new version" : "Create rubric task"}
              </button>
              {!definition && <span className="text-xs text-slate-600">Fix the problems listed to save.</span>}
              {saved && (
                <span role="status" className="text-sm text-green-700" data-testid="rubric-saved">
                  {saved}
                </span>
              )}
              {save.error && (
                <span role="alert" className="text-sm text-red-700" data-testid="rubric-save-error">
                  {save.error.message}
                </span>
              )}
            </div>
          )}
        </form>

        <div className="flex min-w-0 flex-col gap-4" data-testid="rubric-live-preview">
          <div>
            <h3 className="mb-1 text-sm font-semibold text-slate-800">Problems</h3>
            {shown.length === 0 ? (
              <p className="text-sm text-green-700" data-testid="rubric-no-problems">
                None: the definition is valid.
              </p>
            ) : (
              <ul className="flex flex-col gap-1 text-sm text-red-700" data-testid="rubric-problems">
                {shown.map((p, i) => (
                  <li key={i} data-testid="rubric-problem">
                    <code className="text-xs">{p.path}</code>: {p.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
          {draft.guidelines.trim() && (
            <div>
              <h3 className="mb-1 text-sm font-semibold text-slate-800">Guidelines as reviewers see them</h3>
              <Markdown text={draft.guidelines} testId="rubric-guidelines-preview" />
            </div>
          )}
          <div>
            <h3 className="mb-1 text-sm font-semibold text-slate-800">
              Prompt (sample video prompt: “{SAMPLE_PROMPT}”)
            </h3>
            {renderedPrompt ? (
              <pre
                tabIndex={0}
                className="max-h-[32rem] overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs"
                data-testid="rubric-rendered-prompt"
              >
                {renderedPrompt}
              </pre>
            ) : (
              <p className="text-sm text-slate-500">Fix the problems to see the prompt.</p>
            )}
          </div>
          {canManage && preview && (
            <RubricVideoPreview
              projectId={projectId}
              definition={definition ? definitionInput : null}
              choices={preview}
            />
          )}
        </div>
      </div>
    </section>
  );
}

function CriterionFields({
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
      {c.type === "numeric" && (
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
      )}
      {c.type === "categorical" && (
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
      )}
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
        {onRemove && (
          <button type="button" className="ml-auto text-red-700 underline" onClick={onRemove}>
            Remove criterion {n}
          </button>
        )}
      </div>
      <FieldProblems problems={problems} path={at("aggregation")} />
      {c.type === "numeric" && c.presence && (
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
      )}
      {c.presence && <FieldProblems problems={problems} path={at("presence")} exact />}
      {!c.presence && c.type !== "numeric" && <FieldProblems problems={problems} path={at("presence")} exact />}
      <FieldProblems problems={problems} path={at("positiveAtLeast")} />
      <FieldProblems problems={problems} path={at("positiveLabel")} />
    </fieldset>
  );
}
