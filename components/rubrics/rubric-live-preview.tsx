// The rubric editor's live preview beside the form: the problems, the guidelines as reviewers see them, the prompt
// rendered with a sample video prompt and sample frames, and (for a manager) a preview on a real video.
import { Markdown } from "@/components/markdown";
import type { RubricDefinition, RubricDefinitionInput, RubricProblem } from "@/lib/rubrics/rubric-definition";
import { framesText, renderRubricPrompt } from "@/lib/rubrics/rubric-prompt";
import type { RubricDraft } from "./rubric-draft";
import { RubricVideoPreview, type PreviewChoices } from "./rubric-video-preview";

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

export function RubricLivePreview({
  projectId,
  draft,
  definition,
  definitionInput,
  shown,
  preview,
}: {
  projectId: string;
  draft: RubricDraft;
  definition: RubricDefinition | null;
  definitionInput: RubricDefinitionInput;
  shown: RubricProblem[];
  /** The video preview's choices; null hides it (a member who may not edit, or no videos). */
  preview: PreviewChoices | null;
}) {
  // An item's fields are shown as ‹field› in the form's preview; "Preview with a video" fills them from a real item.
  const sampleItem =
    definition?.subject.kind === "item"
      ? Object.fromEntries(definition.subject.fields.map((f) => [f.id, `‹${f.label}›`]))
      : {};
  const renderedPrompt = definition
    ? renderRubricPrompt(definition, { prompt: SAMPLE_PROMPT, frames: sampleFrames(definition), item: sampleItem })
    : null;
  return (
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
        <h3 className="mb-1 text-sm font-semibold text-slate-800">Prompt (sample video prompt: “{SAMPLE_PROMPT}”)</h3>
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
      {preview && (
        <RubricVideoPreview projectId={projectId} definition={definition ? definitionInput : null} choices={preview} />
      )}
    </div>
  );
}
