import type { DeclarationCatalogue } from "../../task-modules/declaration-catalogue";
import { runDate, runJudgeName, runTaskName, type RunNameParts } from "../../run-records/run-name";

/**
 * Labels of several runs shown together (the runs list, a picker, a chart legend), each telling its run apart
 * from the others: the task, the judge, the start to the second (UTC), then every setting in which the runs
 * differ — input mode, frames, samples, the endpoint's address, aggregation… Runs of one endpoint started the
 * same day read the same under runName; here they don't. Plain TypeScript, no database: the loaders
 * (lib/judge/runs/run-option-labels.ts) hand it what each run was started with.
 */
export interface RunLabelParts extends RunNameParts {
  id: string;
  /** What the run was started with, as words by name: see runSettingWords. */
  settings: Record<string, string>;
}

const words = (value: unknown): string =>
  value === null || value === undefined ? "none" : typeof value === "object" ? JSON.stringify(value) : String(value);

/** A settings object as words by name, one level of nesting spelled out ("verdict.threshold": "70"). */
function flatten(prefix: string, value: unknown, into: Record<string, string>) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (inner && typeof inner === "object" && !Array.isArray(inner) && prefix === "") flatten(name, inner, into);
      else into[name] = words(inner);
    }
  } else if (prefix) into[prefix] = words(value);
}

/**
 * What a run was started with, as words by name: its input mode, its pipeline settings (aggregation, frames,
 * verdict…), the judge endpoint's address and generation parameters (temperature, image detail), the other
 * judges by role, edited prompt templates (by the version's short hash; a template not named is the shipped
 * one), batch mode and an ensemble's kind (with its samples). The endpoint's name and model are the judge, shown apart.
 */
export function runSettingWords(run: {
  /** How the run showed videos to the judge (`judge_run.inputMode`). */
  inputMode?: string | null;
  settings: unknown;
  endpointSnapshot: unknown;
  batchMode?: boolean;
  ensemble?: unknown;
  /** Template id → the prompt version's hash, for the templates the run rendered from an edited version. */
  promptVersions?: Record<string, string>;
}): Record<string, string> {
  const out: Record<string, string> = {};
  if (run.inputMode) out["input mode"] = run.inputMode;
  flatten("", run.settings ?? {}, out);
  const {
    name: _name,
    model: _model,
    baseUrl,
    roles,
    ...parameters
  } = (run.endpointSnapshot ?? {}) as Record<string, unknown>;
  if (typeof baseUrl === "string") out["endpoint at"] = baseUrl;
  for (const [key, value] of Object.entries(parameters)) out[key] = words(value);
  if (roles && typeof roles === "object") {
    for (const [role, judge] of Object.entries(
      roles as Record<string, { name?: unknown; model?: unknown; temperature?: unknown }>,
    )) {
      out[`${role} judge`] = runJudgeName(
        String(judge?.name ?? "?"),
        typeof judge?.model === "string" ? judge.model : null,
      );
      if (judge?.temperature !== undefined) out[`${role} temperature`] = words(judge.temperature);
    }
  }
  for (const [templateId, hash] of Object.entries(run.promptVersions ?? {}))
    out[`prompt ${templateId}`] = `edited ${hash.slice(0, 8)}`;
  if (run.batchMode) out.batch = "yes";
  if (run.ensemble && typeof run.ensemble === "object") {
    const e = run.ensemble as { kind?: unknown; samples?: unknown; combine?: unknown };
    out.ensemble = `${words(e.kind)}${typeof e.samples === "number" ? ` of ${e.samples}` : ""}${e.combine ? `, ${words(e.combine)}` : ""}`;
  }
  return out;
}

/** What a setting reads as when a run does not have it: a prompt template not named is the shipped one. */
const absent = (key: string) => (key.startsWith("prompt ") ? "shipped" : key === "batch" ? "no" : "none");

/**
 * Each run's label by id, for runs listed together. Every label has the task, the judge and the start to
 * the second; a setting whose words are not the same for every run is added ("temperature 0.7"), in name
 * order. Runs that still read the same (started in the same second with the same settings) are numbered.
 */
export function distinctRunLabels(
  runs: readonly RunLabelParts[],
  catalogue: DeclarationCatalogue,
): Map<string, string> {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.settings)))].sort();
  const differing = keys.filter((key) => new Set(runs.map((r) => r.settings[key] ?? absent(key))).size > 1);
  const labels = runs.map((run) => {
    const base = `${runTaskName(run.pipeline, catalogue)} · ${runJudgeName(run.endpointName, run.model)} · ${runDate(run.createdAt, { seconds: true })}`;
    const settings = differing.map((key) => `${key} ${run.settings[key] ?? absent(key)}`).join(", ");
    return settings ? `${base} · ${settings}` : base;
  });
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const label of labels) total.set(label, (total.get(label) ?? 0) + 1);
  return new Map(
    runs.map((run, i) => {
      const label = labels[i]!;
      if (total.get(label)! < 2) return [run.id, label];
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      return [run.id, `${label} · #${n} of ${total.get(label)}`];
    }),
  );
}
