"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type Dispatch, type SetStateAction, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { RunProgress } from "@/components/judge/run-progress";
import { startConstruction, startGeneration } from "./construction-requests";

export interface EndpointChoice {
  id: string;
  name: string;
  model: string;
}
export interface SetRunRow {
  id: string;
  status: string;
  createdAt: string;
  endpoint: { name: string; model: string };
}

const select = "rounded-md border border-slate-300 px-2 py-1.5";

/** One option per endpoint, named as everywhere on the page. */
function EndpointOptions({ endpoints }: { endpoints: readonly { id: string; name: string; model: string }[] }) {
  return endpoints.map((e) => (
    <option key={e.id} value={e.id}>
      {e.name} · {e.model}
    </option>
  ));
}

/** How a generated question addresses a generic clip: as its annotations say, or first- or third-person. */
type Perspective = "auto" | "first_person" | "third_person";

/** Where to add an endpoint before a run can start. */
function NoEndpointNote({ projectId }: { projectId: string }) {
  return (
    <p className="text-xs text-slate-500">
      Add an endpoint on the{" "}
      <Link className="text-indigo-700 underline" href={`/projects/${projectId}/judge`}>
        Judge
      </Link>{" "}
      page first.
    </p>
  );
}

/** The perspective a Generate run gives generic clips. */
function PerspectiveSelect({ value, onChange }: { value: Perspective; onChange: (perspective: Perspective) => void }) {
  return (
    <label className="flex flex-col gap-1">
      Perspective of generic clips
      <select
        className={select}
        value={value}
        onChange={(e) => onChange(e.target.value as Perspective)}
        data-testid="generate-perspective"
      >
        <option value="auto">as the annotations say (third-person if they don&apos;t)</option>
        <option value="first_person">first-person (egocentric)</option>
        <option value="third_person">third-person</option>
      </select>
    </label>
  );
}

/**
 * Start a set's run (Generate over a clip set, Filter & transform over a candidate set) and follow it: the
 * newest run's live progress with its cancel button (the runs' own component), older runs as links.
 */
export function ConstructionRunPanel({
  projectId,
  kind,
  setId,
  endpoints,
  runs,
  canManage,
}: {
  projectId: string;
  kind: "generate" | "construct";
  setId: string;
  endpoints: EndpointChoice[];
  runs: SetRunRow[];
  canManage: boolean;
}) {
  const router = useRouter();
  const [endpointId, setEndpointId] = useState(endpoints[0]?.id ?? "");
  const [checkerEndpointId, setCheckerEndpointId] = useState("");
  // Appendix D asks three assistants per check: a second and a third checker are optional.
  const [moreCheckers, setMoreCheckers] = useState<[string, string]>(["", ""]);
  const [perspective, setPerspective] = useState<Perspective>("auto");
  const [started, setStarted] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = started ?? runs[0]?.id ?? null;
  const label = kind === "generate" ? "Generate" : "Filter & transform";

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const run =
        kind === "generate"
          ? await startGeneration(projectId, { clipSetId: setId, endpointId, perspective })
          : await startConstruction(projectId, {
              candidateSetId: setId,
              endpointId,
              checkerEndpointId: checkerEndpointId || undefined,
              moreCheckerEndpointIds: moreCheckers,
            });
      setStarted(run.id);
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2" data-testid={`${kind}-panel`}>
      {canManage &&
        (endpoints.length === 0 ? (
          <NoEndpointNote projectId={projectId} />
        ) : (
          <form
            className="flex flex-wrap items-end gap-2 text-xs"
            onSubmit={(e) => {
              e.preventDefault();
              void start();
            }}
          >
            <label className="flex flex-col gap-1">
              {kind === "generate" ? "Generator endpoint" : "Endpoint"}
              <select
                className={select}
                value={endpointId}
                onChange={(e) => setEndpointId(e.target.value)}
                data-testid={`${kind}-endpoint`}
              >
                <EndpointOptions endpoints={endpoints} />
              </select>
            </label>
            {kind === "generate" && <PerspectiveSelect value={perspective} onChange={setPerspective} />}
            {kind === "construct" && (
              <CheckerSelects
                endpoints={endpoints}
                checkerEndpointId={checkerEndpointId}
                setCheckerEndpointId={setCheckerEndpointId}
                moreCheckers={moreCheckers}
                setMoreCheckers={setMoreCheckers}
              />
            )}
            <button
              type="submit"
              className={buttonClass("secondary")}
              disabled={busy || !endpointId}
              data-testid={`${kind}-start`}
            >
              {label}
            </button>
          </form>
        ))}
      {error && (
        <p role="alert" className="text-xs text-red-700" data-testid={`${kind}-error`}>
          {error}
        </p>
      )}
      {latest && <RunProgress runId={latest} canManage={canManage} compact />}
      <OlderRuns projectId={projectId} runs={runs} />
    </div>
  );
}

/** The checking endpoints of a Filter & transform run: the first one (else the run's own) and two optional more. */
function CheckerSelects({
  endpoints,
  checkerEndpointId,
  setCheckerEndpointId,
  moreCheckers,
  setMoreCheckers,
}: {
  endpoints: EndpointChoice[];
  checkerEndpointId: string;
  setCheckerEndpointId: (id: string) => void;
  moreCheckers: [string, string];
  setMoreCheckers: Dispatch<SetStateAction<[string, string]>>;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Checking endpoint (optional)
        <select
          className={select}
          value={checkerEndpointId}
          onChange={(e) => setCheckerEndpointId(e.target.value)}
          data-testid="construct-checker-endpoint"
        >
          <option value="">the same endpoint</option>
          <EndpointOptions endpoints={endpoints} />
        </select>
      </label>
      {([0, 1] as const).map((j) => (
        <label
          key={j}
          className="flex flex-col gap-1"
          title="Each multiple-choice check (Tables 31, 32) is asked of every checker and decided by the majority."
        >
          {j === 0 ? "Second checker (optional)" : "Third checker (optional)"}
          <select
            className={select}
            value={moreCheckers[j]}
            onChange={(e) =>
              setMoreCheckers((current) => (j === 0 ? [e.target.value, current[1]] : [current[0], e.target.value]))
            }
            data-testid={`construct-checker-endpoint-${j + 2}`}
          >
            <option value="">none</option>
            <EndpointOptions endpoints={endpoints} />
          </select>
        </label>
      ))}
    </>
  );
}

/** The set's runs, newest first, as links to their pages. */
function OlderRuns({ projectId, runs }: { projectId: string; runs: SetRunRow[] }) {
  if (runs.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-3 text-xs text-slate-600">
      {runs.map((run) => (
        <li key={run.id}>
          <Link className="text-indigo-700 underline" href={`/projects/${projectId}/runs/${run.id}`}>
            {run.createdAt.slice(0, 16).replace("T", " ")}
          </Link>{" "}
          · {run.endpoint.model} · {run.status}
        </li>
      ))}
    </ul>
  );
}
