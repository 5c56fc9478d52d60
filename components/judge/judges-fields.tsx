// Who judges a run: one answer per score, self-consistency samples on the endpoint, or a panel of endpoints
// (lib/ensembles). The fields of the run form that choose it, and the ensemble they send.
import type { Dispatch, SetStateAction } from "react";

export interface JudgesValue {
  judges: "one" | "samples" | "panel";
  samples: number;
  temperature: number;
  panelIds: string[];
  combine: "mean" | "majority" | "minimum";
}

export const ONE_JUDGE: JudgesValue = { judges: "one", samples: 5, temperature: 0.7, panelIds: [], combine: "mean" };

/** The panel's endpoints that still exist, in the endpoints' order. */
export const panelOf = (value: JudgesValue, endpoints: readonly { id: string }[]) =>
  endpoints.filter((e) => value.panelIds.includes(e.id)).map((e) => e.id);

/** The run request's `ensemble`, or undefined for one answer per score. */
export function ensembleOf(value: JudgesValue, panel: string[]) {
  if (value.judges === "samples") return { kind: "samples", samples: value.samples, temperature: value.temperature };
  if (value.judges === "panel") return { kind: "panel", endpointIds: panel, combine: value.combine };
  return undefined;
}

export function JudgesFields({
  value,
  setValue,
  endpoints,
}: {
  value: JudgesValue;
  setValue: Dispatch<SetStateAction<JudgesValue>>;
  endpoints: readonly { id: string; name: string }[];
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Judges
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={value.judges}
          onChange={(e) => setValue((v) => ({ ...v, judges: e.target.value as JudgesValue["judges"] }))}
          data-testid="run-judges"
        >
          <option value="one">one answer per score</option>
          <option value="samples">samples (self-consistency)</option>
          <option value="panel">a panel of endpoints</option>
        </select>
      </label>
      {value.judges === "samples" && (
        <>
          <label className="flex flex-col gap-1">
            Samples
            <input
              type="number"
              min={1}
              max={10}
              className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
              value={value.samples}
              onChange={(e) => setValue((v) => ({ ...v, samples: Number(e.target.value) }))}
              data-testid="run-samples"
            />
          </label>
          <label className="flex flex-col gap-1">
            at temperature
            <input
              type="number"
              min={0}
              max={2}
              step={0.1}
              className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
              value={value.temperature}
              onChange={(e) => setValue((v) => ({ ...v, temperature: Number(e.target.value) }))}
              data-testid="run-temperature"
            />
          </label>
        </>
      )}
      {value.judges === "panel" && <PanelFields value={value} setValue={setValue} endpoints={endpoints} />}
    </>
  );
}

function PanelFields({
  value,
  setValue,
  endpoints,
}: {
  value: JudgesValue;
  setValue: Dispatch<SetStateAction<JudgesValue>>;
  endpoints: readonly { id: string; name: string }[];
}) {
  return (
    <fieldset className="flex flex-col gap-1" data-testid="run-panel">
      <legend>Panel (2–5 endpoints)</legend>
      <div className="flex flex-wrap gap-x-3">
        {endpoints.map((e) => (
          <label key={e.id} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={value.panelIds.includes(e.id)}
              onChange={(ev) =>
                setValue((v) => ({
                  ...v,
                  panelIds: ev.target.checked ? [...v.panelIds, e.id] : v.panelIds.filter((id) => id !== e.id),
                }))
              }
            />
            {e.name}
          </label>
        ))}
      </div>
      <select
        className="rounded-md border border-slate-300 px-2 py-1.5"
        value={value.combine}
        onChange={(e) => setValue((v) => ({ ...v, combine: e.target.value as JudgesValue["combine"] }))}
        aria-label="Combine the judges by"
        data-testid="run-combine"
      >
        <option value="mean">combined by mean</option>
        <option value="majority">combined by majority</option>
        <option value="minimum">combined by the least favourable value</option>
      </select>
    </fieldset>
  );
}
