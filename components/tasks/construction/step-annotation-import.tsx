"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ApiError, apiFetch } from "@/lib/api-client";

interface PlannedClip {
  clipIndex: number;
  start: number;
  end: number;
  fromStep: number;
  toStep: number;
  dataset: string;
}
interface Plan {
  video: string;
  line: number;
  clips: PlannedClip[];
  discarded: { fromStep: number; toStep: number; reason: string }[];
}
interface Summary {
  dryRun: boolean;
  set: { id: string | null; name: string; itemCount: number };
  videos: number;
  clips: number;
  byDataset: Record<string, number>;
  plans: Plan[];
}
interface Problem {
  message: string;
  errors: { line: number | null; message: string }[];
  unmatched: string[];
}

const seconds = (s: number) => `${Math.round(s * 10) / 10}s`;
const steps = (from: number, to: number) => (from === to ? `step ${from}` : `steps ${from}–${to}`);

/** Step annotations: a dry run shows the clips each video makes and what the trimming left out; then the import. */
export function StepAnnotationImport({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  async function send(dryRun: boolean) {
    if (!file) return;
    const form = new FormData();
    form.set("file", file, file.name);
    if (name.trim()) form.set("name", name.trim());
    form.set("dryRun", dryRun ? "true" : "false");
    setBusy(true);
    setProblem(null);
    try {
      const result = await apiFetch<Summary>(`/api/v1/projects/${projectId}/step-annotations`, {
        method: "POST",
        body: form,
      });
      setSummary(result);
      if (!dryRun) router.refresh();
    } catch (error) {
      const details =
        error instanceof ApiError
          ? (error.body as { error?: { details?: Partial<Problem> } } | null)?.error?.details
          : undefined;
      setSummary(null);
      setProblem({
        message: error instanceof Error ? error.message : String(error),
        errors: details?.errors ?? [],
        unmatched: details?.unmatched ?? [],
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="step-annotation-import">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          Step annotation file (JSONL, JSON or CSV)
          <input
            type="file"
            accept=".jsonl,.json,.csv,application/json,text/csv"
            data-testid="step-annotation-file"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setSummary(null);
              setProblem(null);
            }}
          />
        </label>
        <label className="flex flex-col gap-1">
          Set name (default: the file name)
          <input
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={name}
            maxLength={300}
            onChange={(e) => setName(e.target.value)}
            data-testid="step-annotation-name"
          />
        </label>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={!file || busy}
          onClick={() => void send(true)}
          data-testid="step-annotation-check"
        >
          Check (dry run)
        </button>
        <button
          type="button"
          className={buttonClass()}
          disabled={!file || busy || !summary?.dryRun}
          onClick={() => void send(false)}
          data-testid="step-annotation-submit"
        >
          Import
        </button>
      </div>
      {problem && <ImportProblem problem={problem} />}
      {summary && <ImportSummary summary={summary} />}
    </div>
  );
}

function ImportProblem({ problem }: { problem: Problem }) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-1 rounded-md border border-red-200 bg-red-50 p-3 text-xs text-red-800"
      data-testid="step-annotation-errors"
    >
      <p>{problem.message}</p>
      {problem.errors.length > 0 && (
        <ul className="max-h-48 overflow-y-auto">
          {problem.errors.map((e, i) => (
            <li key={i}>
              {e.line !== null ? `line ${e.line}: ` : ""}
              {e.message}
            </li>
          ))}
        </ul>
      )}
      {problem.unmatched.length > 0 && <p>Not in the project: {problem.unmatched.join(", ")}</p>}
    </div>
  );
}

/** The clips each video makes (or made) and what the trimming left out. */
function ImportSummary({ summary }: { summary: Summary }) {
  return (
    <div className="flex flex-col gap-2" data-testid="step-annotation-summary" data-dry-run={summary.dryRun}>
      <p className="font-medium">
        {summary.dryRun ? "Would create" : "Created"} {summary.set.name}: {summary.clips} clip
        {summary.clips === 1 ? "" : "s"} from {summary.videos} video{summary.videos === 1 ? "" : "s"} ·{" "}
        {Object.entries(summary.byDataset)
          .map(([dataset, n]) => `${dataset} ${n}`)
          .join(" · ")}
      </p>
      <table className="w-full text-left text-xs">
        <thead className="text-slate-500">
          <tr>
            <th className="py-1 pr-3">line</th>
            <th className="py-1 pr-3">video</th>
            <th className="py-1 pr-3">clips</th>
            <th className="py-1">left out by the trimming</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {summary.plans.map((plan) => (
            <tr key={`${plan.line}-${plan.video}`} data-testid="step-annotation-plan">
              <td className="py-1 pr-3 align-top">{plan.line}</td>
              <td className="py-1 pr-3 align-top font-mono">{plan.video}</td>
              <td className="py-1 pr-3 align-top" data-testid="step-annotation-clips">
                {plan.clips.length}
                <ul className="text-slate-500">
                  {plan.clips.map((clip) => (
                    <li key={clip.clipIndex}>
                      #{clip.clipIndex}: {seconds(clip.start)}–{seconds(clip.end)}, {steps(clip.fromStep, clip.toStep)}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="py-1 align-top" data-testid="step-annotation-discarded">
                {plan.discarded.length === 0 ? (
                  <span className="text-slate-500">nothing</span>
                ) : (
                  <ul>
                    {plan.discarded.map((d, i) => (
                      <li key={i}>
                        {steps(d.fromStep, d.toStep)}: {d.reason}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
