"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import { rubricProblems, type RubricDefinition, type RubricProblem } from "@/lib/rubrics/rubric-definition";
import { definitionInputOf, draftOf, emptyDraft, type CriterionDraft, type RubricDraft } from "./rubric-draft";
import type { PreviewChoices } from "./rubric-video-preview";
import { CriteriaFields, FramesFields, PromptFields, SaveBar, SubjectFields } from "./rubric-editor-sections";
import { Field, input } from "./rubric-form-fields";
import { RubricLivePreview } from "./rubric-live-preview";

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
  const [draft, setDraft] = useState<RubricDraft>(() => (task ? draftOf(task.definition) : emptyDraft()));
  const definitionInput = useMemo(() => definitionInputOf(draft), [draft]);
  const { definition, problems } = useMemo(() => rubricProblems(definitionInput), [definitionInput]);
  const { save, saved, serverProblems } = useRubricSave(projectId, task, definitionInput, onClose);
  const shown = problems.length ? problems : serverProblems;

  const set = <K extends keyof RubricDraft>(key: K, value: RubricDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setCriterion = (index: number, patch: Partial<CriterionDraft>) =>
    setDraft((d) => ({ ...d, criteria: d.criteria.map((c, i) => (i === index ? { ...c, ...patch } : c)) }));
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

            <SubjectFields draft={draft} set={set} shown={shown} />

            <FramesFields draft={draft} set={set} shown={shown} />

            <CriteriaFields draft={draft} set={set} shown={shown} canManage={canManage} setCriterion={setCriterion} />

            <PromptFields draft={draft} set={set} shown={shown} />
          </fieldset>

          {canManage && <SaveBar save={save} saved={saved} valid={!!definition} editing={!!task} />}
        </form>

        <RubricLivePreview
          projectId={projectId}
          draft={draft}
          definition={definition}
          definitionInput={definitionInput}
          shown={shown}
          preview={canManage ? preview : null}
        />
      </div>
    </section>
  );
}

/**
 * Saves the rubric: a new task, or the next version of one (unchanged text keeps its version). The server's
 * problems, when it refuses, are kept to show at their fields.
 */
function useRubricSave(
  projectId: string,
  task: EditedTask | null,
  definitionInput: ReturnType<typeof definitionInputOf>,
  onClose: () => void,
) {
  const router = useRouter();
  const [serverProblems, setServerProblems] = useState<RubricProblem[]>([]);
  const [saved, setSaved] = useState<string | null>(null);

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

  return { save, saved, serverProblems };
}
