import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import { formatDateTime } from "../format/date-time";

/**
 * The one name of a judge run, wherever a run is shown: its task, the model and endpoint that judged,
 * and when it started (UTC) — "Hallucination · gpt-4o @ default (environment) · 23 Nov 2026 14:05".
 * People tell runs apart by these, never by an id tail. Plain TypeScript: pages, client components
 * and the search (lib/search) share it. A rubric task's name is its project's: pass the project's catalogue.
 */
export interface RunNameParts {
  pipeline: string;
  endpointName: string;
  /** The endpoint's model; null when unknown (then the endpoint alone). */
  model: string | null;
  createdAt: Date | string;
}

/**
 * The pipeline of a pairwise judge run (lib/pairwise/judge) and its name. It judges pairs, not videos, so no task of
 * the catalogue declares it; it is named here, with the run records, where pages and the pairwise code both read it.
 */
export const PAIRWISE_RUN = { pipeline: "pairwise", label: "Pairwise comparison" } as const;

/** The task's short name: its label without the parenthesised source ("Hallucination"); the pipeline id for an unknown task. */
export function runTaskName(pipeline: string, catalogue: DeclarationCatalogue): string {
  if (pipeline === PAIRWISE_RUN.pipeline) return PAIRWISE_RUN.label;
  const label = catalogue.findTask(pipeline)?.label;
  return label ? label.replace(/\s*\(.*\)\s*$/, "") : pipeline;
}

/** A run's start as the judge pages write every moment (lib/format/date-time.ts): "23 Nov 2026 14:05", UTC. */
export function runDate(createdAt: Date | string, options: { seconds?: boolean } = {}): string {
  return formatDateTime(createdAt, options);
}

/** "gpt-4o @ default (environment)", or the endpoint alone when the model is unknown or is its name. */
export function runJudgeName(endpointName: string, model: string | null): string {
  return model && model !== endpointName ? `${model} @ ${endpointName}` : endpointName;
}

export function runName(run: RunNameParts, catalogue: DeclarationCatalogue): string {
  return `${runTaskName(run.pipeline, catalogue)} · ${runJudgeName(run.endpointName, run.model)} · ${runDate(run.createdAt)}`;
}

/**
 * The judges of a panel run, from its stored ensemble (`judge_run.ensemble`, written by lib/judge/runs/ensemble-settings
 * and lib/pairwise/judge/pairwise-run: `kind: "panel"` with one endpoint id per judge), else null. Read here by its shape:
 * run records sit below the judge layer.
 */
export function panelJudgeCount(ensemble: unknown): number | null {
  if (!ensemble || typeof ensemble !== "object") return null;
  const { kind, endpointIds } = ensemble as { kind?: unknown; endpointIds?: unknown };
  return kind === "panel" && Array.isArray(endpointIds) ? endpointIds.length : null;
}

/**
 * Who judged a run row: a panel's judges counted ("Panel of 3 judges": its endpoint is only the first judge's), else
 * its endpoint's name and model as they were when the run started (its snapshot), else the endpoint's current ones.
 * A row read without its `ensemble` is named by its endpoint.
 */
export function runEndpointOfRow(row: {
  endpointSnapshot?: unknown;
  endpoint: { name: string; model: string | null };
  ensemble?: unknown;
}): Pick<RunNameParts, "endpointName" | "model"> {
  const judges = panelJudgeCount(row.ensemble);
  if (judges !== null) return { endpointName: `Panel of ${judges} judges`, model: null };
  const snapshot = (row.endpointSnapshot ?? {}) as { name?: unknown; model?: unknown };
  return {
    endpointName: typeof snapshot.name === "string" ? snapshot.name : row.endpoint.name,
    model: typeof snapshot.model === "string" ? snapshot.model : row.endpoint.model,
  };
}

/** The name of a run row as Prisma reads it, with its endpoint as runEndpointOfRow reads it. */
export function runNameOfRow(
  row: {
    pipeline: string;
    createdAt: Date | string;
    endpointSnapshot?: unknown;
    endpoint: { name: string; model: string | null };
    ensemble?: unknown;
  },
  catalogue: DeclarationCatalogue,
): string {
  return runName({ pipeline: row.pipeline, ...runEndpointOfRow(row), createdAt: row.createdAt }, catalogue);
}
