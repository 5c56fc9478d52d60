// The sections of the rubric editor's form, each a part of the draft with the problems found in it: the subject,
// the frames, the criteria, the prompt template and its options, and the bar that saves.
import { RUBRIC_VARIABLES, type RubricProblem } from "@/lib/rubrics/rubric-definition";
import { newCriterion, type CriterionDraft, type FramesMode, type RubricDraft } from "./rubric-draft";
import { CriterionFields } from "./rubric-criterion-fields";
import { Field, FieldProblems, input } from "./rubric-form-fields";

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

type SetDraft = <K extends keyof RubricDraft>(key: K, value: RubricDraft[K]) => void;

interface SectionProps {
  draft: RubricDraft;
  set: SetDraft;
  /** The problems shown at the fields: the browser's own check, else what the server answered. */
  shown: RubricProblem[];
}

/** What a judgment is of: each video, or each item of an item set with its fields. */
export function SubjectFields({ draft, set, shown }: SectionProps) {
  return (
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
  );
}

/** Which frames a call sends: the mode, the count for uniform frames, the longest side. */
export function FramesFields({ draft, set, shown }: SectionProps) {
  return (
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
      <Field label="In a video run, send the frames" problems={shown} path="frames.input">
        <select
          className={input}
          value={draft.framesInput}
          onChange={(e) => set("framesInput", e.target.value as RubricDraft["framesInput"])}
          data-testid="rubric-frames-input"
        >
          <option value="video">as one video (in the run&apos;s mode)</option>
          <option value="images">as still images</option>
        </select>
      </Field>
      <FieldProblems problems={shown} path="frames" exact />
    </div>
  );
}

/** The criteria, each with its fields; add one, remove one while more than one is left. */
export function CriteriaFields({
  draft,
  set,
  shown,
  canManage,
  setCriterion,
}: SectionProps & { canManage: boolean; setCriterion: (index: number, patch: Partial<CriterionDraft>) => void }) {
  return (
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
  );
}

/** The prompt template with its variables, whether to ask for reasons, and the version's few-shot examples. */
export function PromptFields({ draft, set, shown }: SectionProps) {
  return (
    <>
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
          {draft.examples.length === 1 ? "" : "s"} (labelled videos with their frames, chosen by an alignment); saving
          an edit keeps them.
        </p>
      )}
    </>
  );
}

/** Save (or create), and what the save answered. */
export function SaveBar({
  save,
  saved,
  valid,
  editing,
}: {
  /** The save request: whether it is under way, and its error. */
  save: { isPending: boolean; error: Error | null };
  saved: string | null;
  valid: boolean;
  editing: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="submit"
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
        disabled={!valid || save.isPending}
      >
        {save.isPending ? "Saving…" : editing ? "Save as a new version" : "Create rubric task"}
      </button>
      {!valid && <span className="text-xs text-slate-600">Fix the problems listed to save.</span>}
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
  );
}
