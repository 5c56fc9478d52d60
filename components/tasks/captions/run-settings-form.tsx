"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiFetch } from "@/lib/api-client";
import type { RunSettingsFormProps } from "../run-settings-form";

interface CaptionSetRow {
  id: string;
  kind: string;
  name: string;
  outputs?: { id: string; model: string; itemCount: number }[];
}

type CountedScore = "after_rules" | "judge";
type WordCounting = "framejury" | "anycapeval";

/** The controls' state, shared by both caption pipelines (switching between them keeps the set and models). */
interface CaptionRunState {
  captionSetId: string;
  /** Unticked models are left out; every model by default, as the API does without `models`. */
  excludedModels: string[];
  countedScore: CountedScore;
  wordCounting: WordCounting;
  styleFrames: number;
  contentFrames: number;
}

function initialState(defaults: RunSettingsFormProps["defaults"]): CaptionRunState {
  const style = defaults.caption_style as { countedScore: CountedScore; frames: number; wordCounting: WordCounting };
  const content = defaults.caption_content as { frames: number };
  return {
    captionSetId: "",
    excludedModels: [],
    countedScore: style.countedScore,
    wordCounting: style.wordCounting,
    styleFrames: style.frames,
    contentFrames: content.frames,
  };
}

/** The project's caption reference sets (a run's captions are a reference set's models' outputs). */
function useCaptionReferenceSets(projectId: string) {
  return useQuery({
    queryKey: ["caption-sets", projectId],
    queryFn: () =>
      apiFetch<{ sets: CaptionSetRow[] }>(`/api/v1/projects/${projectId}/caption-sets`).then((b) =>
        b.sets.filter((set) => set.kind === "caption_reference"),
      ),
  });
}

/** A style run's scoring: which score counts (the judge's or after the length rules) and how words are counted. */
function StyleScoringFields({
  state,
  update,
}: {
  state: CaptionRunState;
  update: (patch: Partial<CaptionRunState>) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Score that counts
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={state.countedScore}
          onChange={(e) => update({ countedScore: e.target.value as CountedScore })}
          data-testid="run-counted-score"
        >
          <option value="after_rules">after the length rules</option>
          <option value="judge">the judge&apos;s own</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Count words
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={state.wordCounting}
          onChange={(e) => update({ wordCounting: e.target.value as WordCounting })}
          data-testid="run-word-counting"
        >
          <option value="framejury">FrameJury&apos;s counting</option>
          <option value="anycapeval">as AnyCapEval does (to reproduce its scores)</option>
        </select>
      </label>
    </>
  );
}

/** A caption run's reference set, models, scoring rule and frames. */
export function CaptionRunSettingsForm({
  projectId,
  pipeline,
  defaults,
  state,
  setState,
  children,
}: RunSettingsFormProps) {
  const s = (state as CaptionRunState | undefined) ?? initialState(defaults);
  const update = (patch: Partial<CaptionRunState>) => setState({ ...s, ...patch });
  const captionSets = useCaptionReferenceSets(projectId);
  const chosenSet = captionSets.data?.find((set) => set.id === s.captionSetId) ?? captionSets.data?.[0];
  const setModels = chosenSet?.outputs?.map((o) => o.model) ?? [];
  const models = setModels.filter((m) => !s.excludedModels.includes(m));
  const isStyle = pipeline === "caption_style";
  const frames = isStyle ? s.styleFrames : s.contentFrames;
  const fields = (
    <>
      <label className="flex flex-col gap-1">
        Caption set
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={chosenSet?.id ?? ""}
          onChange={(e) => update({ captionSetId: e.target.value })}
          data-testid="run-caption-set"
        >
          {(captionSets.data ?? []).map((set) => (
            <option key={set.id} value={set.id}>
              {set.name}
            </option>
          ))}
        </select>
      </label>
      <ModelChoice
        setModels={setModels}
        excluded={s.excludedModels}
        onChange={(excludedModels) => update({ excludedModels })}
      />
      {isStyle && <StyleScoringFields state={s} update={update} />}
      <label className="flex flex-col gap-1">
        Uniform frames
        <input
          type="number"
          min={1}
          max={64}
          className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
          value={frames}
          onChange={(e) =>
            update(isStyle ? { styleFrames: Number(e.target.value) } : { contentFrames: Number(e.target.value) })
          }
        />
      </label>
    </>
  );
  return children({
    fields,
    part: {
      request: {
        itemSetId: chosenSet?.id,
        ...(models.length < setModels.length ? { models } : {}),
        settings: isStyle ? { countedScore: s.countedScore, frames, wordCounting: s.wordCounting } : { frames },
      },
      ready: Boolean(chosenSet),
      notice:
        captionSets.isSuccess && !chosenSet ? (
          <span className="text-slate-500">
            Import a caption reference set first (
            <Link className="text-indigo-700 underline" href={`/projects/${projectId}/import`}>
              Import
            </Link>
            ).
          </span>
        ) : undefined,
      pendingQuery: `uniform=${frames}`,
    },
  });
}

/** The reference set's models, each judged unless unchecked. */
function ModelChoice({
  setModels,
  excluded,
  onChange,
}: {
  setModels: string[];
  excluded: string[];
  onChange: (excluded: string[]) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-1" data-testid="run-models">
      <legend>Models</legend>
      <div className="flex flex-wrap gap-2">
        {setModels.map((m) => (
          <label key={m} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={!excluded.includes(m)}
              onChange={(e) => onChange(e.target.checked ? excluded.filter((x) => x !== m) : [...excluded, m])}
            />
            {m}
          </label>
        ))}
        {setModels.length === 0 && <span className="text-slate-500">no outputs imported</span>}
      </div>
    </fieldset>
  );
}
