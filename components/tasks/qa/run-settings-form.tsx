"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiFetch } from "@/lib/api-client";
import type { RunSettingsFormProps } from "../run-settings-form";

interface QuestionSetRow {
  id: string;
  name: string;
  itemCount: number;
}

/** The project's defaults for new QA runs (the qa pipeline's settings). */
interface QaDefaults {
  frames: 8 | 16;
  resize: { mode: "quarter" } | { mode: "longest_side"; px: number };
  textOnlyBaseline: boolean;
  judgeEndpointId?: string;
}

interface QaRunState {
  questionSetId: string;
  frames: 8 | 16;
  resize: "quarter" | "longest_side";
  longestSide: number;
  textOnlyBaseline: boolean;
  judgeEndpointId: string;
}

function initialState(defaults: RunSettingsFormProps["defaults"]): QaRunState {
  const qa = defaults.qa as QaDefaults;
  return {
    questionSetId: "",
    frames: qa.frames,
    resize: qa.resize.mode,
    longestSide: qa.resize.mode === "longest_side" ? qa.resize.px : 512,
    textOnlyBaseline: qa.textOnlyBaseline,
    judgeEndpointId: qa.judgeEndpointId ?? "",
  };
}

/** The project's question sets, for a run to answer one. */
function useQuestionSets(projectId: string) {
  return useQuery({
    queryKey: ["question-sets", projectId],
    queryFn: () =>
      apiFetch<{ sets: QuestionSetRow[] }>(`/api/v1/projects/${projectId}/question-sets`).then((b) => b.sets),
  });
}

/** The run's settings as the request sends them: frames, their resize, the text-only baseline and the judge (when one is chosen). */
function qaRunSettings(s: QaRunState) {
  return {
    frames: s.frames,
    resize:
      s.resize === "quarter" ? { mode: "quarter" as const } : { mode: "longest_side" as const, px: s.longestSide },
    textOnlyBaseline: s.textOnlyBaseline,
    ...(s.judgeEndpointId ? { judgeEndpointId: s.judgeEndpointId } : {}),
  };
}

/** How the frames are resized: a quarter of the area, or a longest side in pixels. */
function FrameSizeFields({ state, update }: { state: QaRunState; update: (patch: Partial<QaRunState>) => void }) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Frame size
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={state.resize}
          onChange={(e) => update({ resize: e.target.value as QaRunState["resize"] })}
          data-testid="run-qa-resize"
        >
          <option value="quarter">a quarter of the area (seed 004)</option>
          <option value="longest_side">a longest side of…</option>
        </select>
      </label>
      {state.resize === "longest_side" && (
        <label className="flex flex-col gap-1">
          px
          <input
            type="number"
            min={64}
            max={4096}
            className="w-24 rounded-md border border-slate-300 px-2 py-1.5"
            value={state.longestSide}
            onChange={(e) => update({ longestSide: Number(e.target.value) })}
            data-testid="run-qa-longest-side"
          />
        </label>
      )}
    </>
  );
}

/** A QA run's question set, frames, frame size, judge and text-only baseline. */
export function QaRunSettingsForm({ projectId, defaults, state, setState, endpoints, children }: RunSettingsFormProps) {
  const s = (state as QaRunState | undefined) ?? initialState(defaults);
  const update = (patch: Partial<QaRunState>) => setState({ ...s, ...patch });
  const questionSets = useQuestionSets(projectId);
  const chosenQuestionSet = questionSets.data?.find((set) => set.id === s.questionSetId) ?? questionSets.data?.at(-1);
  const settings = qaRunSettings(s);
  const fields = (
    <>
      <label className="flex flex-col gap-1">
        Question set
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={chosenQuestionSet?.id ?? ""}
          onChange={(e) => update({ questionSetId: e.target.value })}
          data-testid="run-question-set"
        >
          {(questionSets.data ?? []).map((set) => (
            <option key={set.id} value={set.id}>
              {set.name} ({set.itemCount})
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Frames
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={s.frames}
          onChange={(e) => update({ frames: Number(e.target.value) as 8 | 16 })}
          data-testid="run-qa-frames"
        >
          <option value={8}>8</option>
          <option value={16}>16</option>
        </select>
      </label>
      <FrameSizeFields state={s} update={update} />
      <label className="flex flex-col gap-1">
        Judge
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={s.judgeEndpointId}
          onChange={(e) => update({ judgeEndpointId: e.target.value })}
          data-testid="run-qa-judge"
        >
          <option value="">the evaluated model itself</option>
          {endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name} ({e.model})
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 self-center pt-5">
        <input
          type="checkbox"
          checked={s.textOnlyBaseline}
          onChange={(e) => update({ textOnlyBaseline: e.target.checked })}
          data-testid="run-qa-text-only"
        />
        also answer without frames (text-only baseline)
      </label>
    </>
  );
  return children({
    fields,
    part: {
      request: { itemSetId: chosenQuestionSet?.id, settings },
      ready: Boolean(chosenQuestionSet),
      notice:
        questionSets.isSuccess && !chosenQuestionSet ? (
          <span className="text-slate-500">
            Import a question set first (
            <Link className="text-indigo-700 underline" href={`/projects/${projectId}/import`}>
              Import
            </Link>
            ).
          </span>
        ) : undefined,
      pendingQuery: `uniform=${s.frames}&${s.resize === "quarter" ? "resize=quarter" : `longestSide=${s.longestSide}`}`,
    },
  });
}
