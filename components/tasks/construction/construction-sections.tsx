/** The Q&A construction page's sections: step annotations, clip sets, candidate sets, and the chosen candidate set's funnel and candidates. */
import Link from "next/link";
import {
  candidateExportHref,
  candidateLmmsEvalHref,
  curationHref,
  EXPORT_FORMATS,
} from "@/components/tasks/construction/construction-requests";
import { ConstructionRunPanel } from "@/components/tasks/construction/construction-run-panel";
import { FunnelChart } from "@/components/tasks/construction/funnel-chart";
import { MakeQaSetForm } from "@/components/tasks/construction/make-qa-set-form";
import { RestoreButton } from "@/components/tasks/construction/restore-button";
import { StepAnnotationImport } from "@/components/tasks/construction/step-annotation-import";
import { Card, EmptyState } from "@/components/empty-state";
import { type Column, DataTable } from "@/components/ui/data-table";
import { FilterSelect } from "@/components/ui/filter-select";
import { MC_LETTERS } from "@/lib/tasks/construction/balance-answer-letters";
import type {
  CandidateRow,
  CandidateSetDetail,
  constructionOverview,
  constructionQuerySchema,
  qaSetTargetProjects,
} from "@/lib/tasks/construction/construction-overview";
import { FILTERS } from "@/lib/tasks/construction/filter-funnel";
import { MAX_TRANSFORM_ATTEMPTS } from "@/lib/tasks/construction/transform-attempts";
import type { z } from "zod";

type Overview = Awaited<ReturnType<typeof constructionOverview>>;
type Endpoints = { id: string; name: string; model: string }[];

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key} ${n}`)
    .join(" · ") || "—";
const TRANSFORM_LABELS = {
  transformed: "transformed",
  could_not_transform: "could not transform",
  in_progress: "in progress",
  not_started: "not started",
} as const;
const filterLabel = (id: string) => FILTERS.find((f) => f.id === id)?.label ?? id;
const runRows = (runs: { id: string; status: string; createdAt: Date; endpoint: { name: string; model: string } }[]) =>
  runs.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));

export function StepAnnotationsCard({ projectId, overview }: { projectId: string; overview: Overview }) {
  return (
    <Card title="Step annotations">
      <div className="flex flex-col gap-3 text-sm">
        <details className="text-slate-600" data-testid="step-annotation-formats">
          <summary className="cursor-pointer">The formats</summary>
          <ul className="mt-2 list-disc pl-5 text-xs">
            <li>
              One record per video, as JSONL or a JSON array:{" "}
              <code>
                {'{"video", "theme"?, "duration"?, "dataset"?, "steps": [{"start", "end", "text", "category"?}]}'}
              </code>
              ; times in seconds; <code>dataset</code> is <code>hirest</code>, <code>youcook2</code>,{" "}
              <code>ego4d-goalstep</code>, <code>egoexo4d</code> or <code>generic</code> (the default) and picks the
              generation templates.
            </li>
            <li>
              CSV: one row per step, <code>video,start,end,text</code> and optionally{" "}
              <code>theme,duration,dataset,category,level</code> (<code>level</code> <code>substep</code> attaches a row
              to the step above it).
            </li>
            <li>
              Steps in time order, from 0 on, each ending after it starts and by the duration. Videos match the
              project&apos;s by file name. Ego4D Goal-Step and Ego-Exo4D videos are trimmed into clips of more than 4
              minutes with at least 7 varied steps; the check lists what the trimming left out and why. A bad file
              imports nothing.
            </li>
          </ul>
        </details>
        {overview.may.importAnnotations ? (
          <StepAnnotationImport projectId={projectId} />
        ) : (
          <p className="text-xs text-slate-500">Owners import step annotations; the sets are listed below.</p>
        )}
      </div>
    </Card>
  );
}

export function ClipSetsCard({
  projectId,
  overview,
  endpoints,
}: {
  projectId: string;
  overview: Overview;
  endpoints: Endpoints;
}) {
  return (
    <Card title={`Clip sets (${overview.clipSets.length})`}>
      {overview.clipSets.length === 0 ? (
        <EmptyState title="No step annotations yet">
          {overview.may.importAnnotations
            ? "Import a step annotation file above."
            : "An owner imports step annotations; they will show here."}
        </EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-100" data-testid="clip-sets">
          {overview.clipSets.map((set) => (
            <li key={set.id} className="flex flex-col gap-2 py-3 text-sm" data-testid="clip-set">
              <p>
                <span className="font-medium">{set.name}</span>{" "}
                <span className="text-xs text-slate-500">({set.fileName})</span> · {set.clips} clip
                {set.clips === 1 ? "" : "s"} of {set.videos} video
                {set.videos === 1 ? "" : "s"} ·{" "}
                <span data-testid="clip-set-datasets">{counts(set.clipsByDataset)}</span>
              </p>
              <ConstructionRunPanel
                projectId={projectId}
                kind="generate"
                setId={set.id}
                endpoints={endpoints}
                runs={runRows(set.runs)}
                canManage={overview.may.startRuns}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function CandidateSetsCard({
  projectId,
  overview,
  endpoints,
  detail,
}: {
  projectId: string;
  overview: Overview;
  endpoints: Endpoints;
  detail: CandidateSetDetail | null;
}) {
  return (
    <Card title={`Candidate sets (${overview.candidateSets.length})`}>
      {overview.candidateSets.length === 0 ? (
        <EmptyState title="No candidates yet">
          A finished generation run over a clip set makes a candidate set from its questions.
        </EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-100" data-testid="candidate-sets">
          {overview.candidateSets.map((set) => (
            <li key={set.id} className="flex flex-col gap-2 py-3 text-sm" data-testid="candidate-set">
              <p>
                {detail?.set.id === set.id ? (
                  <span className="font-medium">{set.name}</span>
                ) : (
                  <Link
                    className="font-medium text-indigo-700 underline"
                    href={`/projects/${projectId}/construction?set=${set.id}`}
                  >
                    {set.name}
                  </Link>
                )}{" "}
                · {set.candidates} candidate{set.candidates === 1 ? "" : "s"}
              </p>
              <ConstructionRunPanel
                projectId={projectId}
                kind="construct"
                setId={set.id}
                endpoints={endpoints}
                runs={runRows(set.runs)}
                canManage={overview.may.startRuns}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The chosen candidate set's funnel (table and chart), its transformation and letter counts, its exports and the question set made from it. */
export function FunnelCard({
  projectId,
  overview,
  detail,
  targets,
}: {
  projectId: string;
  overview: Overview;
  detail: CandidateSetDetail;
  targets: Awaited<ReturnType<typeof qaSetTargetProjects>>;
}) {
  return (
    <Card title={`Funnel: ${detail.set.name}`}>
      <div className="flex flex-col gap-4 text-sm">
        <DataTable
          size="xs"
          testId="funnel-table"
          columns={FUNNEL_COLUMNS}
          rows={detail.funnel}
          rowKey={(stage) => stage.id}
          rowProps={(stage) => ({ "data-testid": "funnel-stage", "data-stage": stage.id })}
        />
        <FunnelChart
          stages={detail.funnel.map(({ label, kept, removed, pending }) => ({ label, kept, removed, pending }))}
        />
        <div className="grid gap-4 md:grid-cols-2">
          <div data-testid="transformation-counts">
            <h3 className="mb-1 font-medium">Multiple-choice transformation</h3>
            <p className="text-xs text-slate-600">
              {(Object.keys(TRANSFORM_LABELS) as (keyof typeof TRANSFORM_LABELS)[])
                .map((k) => `${TRANSFORM_LABELS[k]} ${detail.transformation[k]}`)
                .join(" · ")}
            </p>
            <p className="mt-1 text-xs text-slate-500">
              A question no attempt transforms within {MAX_TRANSFORM_ATTEMPTS} attempts could not be transformed.
            </p>
          </div>
          <div data-testid="letter-histogram">
            <h3 className="mb-1 font-medium">Correct letter</h3>
            <LetterHistogram letters={detail.letters} />
          </div>
        </div>
        <div className="flex flex-col gap-2 border-t border-slate-100 pt-3">
          <p className="flex flex-wrap gap-x-3 text-xs">
            <a className="text-indigo-700 underline" href={curationHref(projectId)} data-testid="curation-link">
              Curation queues
            </a>
            {overview.may.export &&
              EXPORT_FORMATS.map((format) => (
                <a
                  key={format}
                  className="text-indigo-700 underline"
                  href={candidateExportHref(detail.set.id, format)}
                  download
                  data-testid={`export-${format}`}
                >
                  Export accepted ({format}) JSONL
                </a>
              ))}
            {overview.may.export &&
              EXPORT_FORMATS.map((format) => (
                <a
                  key={`lmms-${format}`}
                  className="text-indigo-700 underline"
                  href={candidateLmmsEvalHref(detail.set.id, format)}
                  download
                  data-testid={`export-lmms-eval-${format}`}
                >
                  lmms-eval task ({format})
                </a>
              ))}
          </p>
          <MakeQaSetForm
            candidateSetId={detail.set.id}
            candidateSetName={detail.set.name}
            projects={targets}
            defaultProjectId={projectId}
          />
        </div>
      </div>
    </Card>
  );
}

export function CandidatesCard({
  overview,
  detail,
  query,
  keep,
}: {
  overview: Overview;
  detail: CandidateSetDetail;
  query: z.output<typeof constructionQuerySchema>;
  keep: (change: Record<string, string | undefined>) => string;
}) {
  return (
    <Card title={`Candidates (${detail.matching} of ${detail.total})`}>
      <div className="flex flex-col gap-3 text-sm">
        <form method="get" className="flex flex-wrap items-end gap-2 text-xs" data-testid="candidate-filters">
          <input type="hidden" name="set" value={detail.set.id} />
          <FilterSelect
            label="Fate"
            name="fate"
            defaultValue={query.fate ?? ""}
            empty="any"
            options={["kept", "removed", "pending"]}
          />
          <FilterSelect
            label="Filter"
            name="filter"
            defaultValue={query.filter ?? ""}
            empty="any"
            options={FILTERS.map((f) => ({ value: f.id, label: f.label }))}
          />
          <FilterSelect
            label="Category"
            name="category"
            defaultValue={query.category ?? ""}
            empty="any"
            options={detail.categories}
          />
          <FilterSelect
            label="Dataset"
            name="dataset"
            defaultValue={query.dataset ?? ""}
            empty="any"
            options={detail.datasets}
          />
          <button
            type="submit"
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-100"
          >
            Show
          </button>
        </form>
        <DataTable
          size="xs"
          cellPadding="py-2 pr-3 last:pr-0"
          testId="candidate-list"
          columns={candidateColumns(overview.may.restore)}
          rows={detail.rows}
          rowKey={(row) => row.itemId}
          rowProps={(row) => ({
            className: "align-top",
            "data-testid": "candidate",
            "data-fate": row.fate.state,
          })}
          empty={<EmptyState title="No candidate matches">Change the filters.</EmptyState>}
        />
        {detail.pageCount > 1 && (
          <p className="flex items-center gap-3 text-xs" data-testid="candidate-pages">
            {detail.page > 1 && (
              <Link className="text-indigo-700 underline" href={keep({ page: String(detail.page - 1) })}>
                previous
              </Link>
            )}
            page {detail.page} of {detail.pageCount}
            {detail.page < detail.pageCount && (
              <Link className="text-indigo-700 underline" href={keep({ page: String(detail.page + 1) })}>
                next
              </Link>
            )}
          </p>
        )}
      </div>
    </Card>
  );
}

function LetterHistogram({ letters }: { letters: Record<(typeof MC_LETTERS)[number], number> }) {
  const max = Math.max(1, ...Object.values(letters));
  return (
    <div
      className="flex h-24 items-end gap-2"
      role="img"
      aria-label={`Correct letters: ${MC_LETTERS.map((l) => `${l} ${letters[l]}`).join(", ")}`}
    >
      {MC_LETTERS.map((letter) => (
        <div key={letter} className="flex w-8 flex-col items-center gap-1" data-testid={`letter-${letter}`}>
          <span className="text-xs">{letters[letter]}</span>
          <div className="w-full rounded-t bg-indigo-500" style={{ height: `${(letters[letter] / max) * 56}px` }} />
          <span className="text-xs font-medium">{letter}</span>
        </div>
      ))}
    </div>
  );
}

type FunnelStage = CandidateSetDetail["funnel"][number];

const FUNNEL_COLUMNS: Column<FunnelStage>[] = [
  { id: "stage", header: "stage", className: "font-medium", cell: (stage) => stage.label },
  {
    id: "kept",
    header: "kept",
    align: "right",
    cellProps: () => ({ "data-testid": "funnel-kept" }),
    cell: (stage) => stage.kept,
  },
  {
    id: "removed",
    header: "removed",
    align: "right",
    cellProps: () => ({ "data-testid": "funnel-removed" }),
    cell: (stage) => stage.removed,
  },
  {
    id: "pending",
    header: "pending",
    align: "right",
    cellProps: () => ({ "data-testid": "funnel-pending" }),
    cell: (stage) => stage.pending,
  },
  { id: "category", header: "kept by category", cell: (stage) => counts(stage.keptByCategory) },
  { id: "dataset", header: "kept by dataset", cell: (stage) => counts(stage.keptByDataset) },
];

const candidateColumns = (canRestore: boolean): Column<CandidateRow>[] => [
  {
    id: "question",
    header: "question and answer",
    cell: (row) => (
      <>
        <p className="font-medium">{row.question}</p>
        <p className="text-slate-600">{row.answer}</p>
        <p className="font-mono text-slate-500">{row.video}</p>
      </>
    ),
  },
  {
    id: "category",
    header: "category",
    cell: (row) => row.category ?? <span className="text-slate-500">not yet</span>,
  },
  { id: "dataset", header: "dataset", cell: (row) => row.dataset },
  { id: "granularity", header: "granularity", cell: (row) => row.granularity },
  {
    id: "fate",
    header: "fate",
    cellProps: () => ({ "data-testid": "candidate-fate" }),
    cell: (row) => (
      <>
        {row.fate.state === "kept" && <span className="text-emerald-700">kept</span>}
        {row.fate.state === "pending" && <span className="text-slate-500">waiting at {filterLabel(row.fate.at)}</span>}
        {row.removals.map((r) => (
          <p key={r.filter} className={r.restored ? "text-slate-500" : "text-red-700"}>
            {r.restored ? "restored after " : ""}removed by {r.label}: {r.reason}
          </p>
        ))}
        {row.fate.state === "removed" && canRestore && <RestoreButton itemId={row.itemId} filter={row.fate.by} />}
      </>
    ),
  },
  {
    id: "transformation",
    header: "transformation",
    cell: (row) => (
      <>
        {TRANSFORM_LABELS[row.transform]}
        {row.attempts > 0 ? ` · ${row.attempts} attempt${row.attempts === 1 ? "" : "s"}` : ""}
        {row.lastReason && <p className="text-xs text-slate-500">last attempt: {row.lastReason}</p>}
        {row.checks && (
          <p className="text-xs text-slate-500" data-testid="candidate-checks">
            checkers: {row.checks}
          </p>
        )}
      </>
    ),
  },
  {
    id: "curation",
    header: "curation",
    cellProps: () => ({ "data-testid": "candidate-curation" }),
    cell: (row) => (
      <>
        {row.curation.status}
        {row.curation.accepts + row.curation.rejects > 0
          ? ` (${row.curation.accepts} accept, ${row.curation.rejects} reject)`
          : ""}
      </>
    ),
  },
];
