/**
 * The Video QA page's result sections: accuracy per run and group, the model × category heat map, 8 against 16 frames,
 * the pairwise comparisons and the question list.
 */
import Link from "next/link";
import { Card } from "@/components/empty-state";
import { PageLinks } from "@/components/ui/page-links";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FilterSelect, VideoFilterSelect } from "@/components/ui/filter-select";
import { AccuracyCell, formatPercent, OutcomeBadge } from "@/components/tasks/qa/qa-format";
import type { qaFilterOptions } from "@/lib/tasks/qa/qa-questions";
import type { qaPageOverview, runQaResults } from "@/lib/tasks/qa/visible-qa-results";
import type { z } from "zod";
import type { qaPageQuerySchema } from "@/lib/tasks/qa/qa-query";
import { runDate } from "@/lib/run-records/run-name";

export const BREAKDOWN_LABELS = {
  all: "overall",
  format: "format",
  category: "category",
  granularity: "granularity",
  format_category_granularity: "format × category × granularity",
} as const;
const FORMAT_LABELS: Record<string, string> = { mc: "multiple choice", open: "open-ended" };

type QaPageQuery = z.output<typeof qaPageQuerySchema>;
type Overview = Awaited<ReturnType<typeof qaPageOverview>>["overview"];
type Run = Overview["chosen"][number];
type QuestionList = Awaited<ReturnType<typeof runQaResults>>;
/** A link to this page with some of its parameters changed. */
export type KeepLink = (change: Record<string, string | undefined>) => string;

/** A heat-map cell's background: darker green toward 100%, darker red toward 0%. */
function heat(value: number): string {
  const strength = Math.abs(value - 0.5) * 2;
  return value >= 0.5 ? `rgba(16, 185, 129, ${0.1 + 0.5 * strength})` : `rgba(239, 68, 68, ${0.1 + 0.5 * strength})`;
}

export function QaAccuracyCard({
  overview,
  labelOf,
  by,
  hasBaseline,
}: {
  overview: Overview;
  labelOf: Map<string, string>;
  by: QaPageQuery["by"];
  hasBaseline: boolean;
}) {
  const rows = overview.rows.filter((r) => r.breakdown === by);
  return (
    <Card title="Accuracy">
      <p className="mb-2 text-xs text-slate-500">
        Per run (model · frames) and {BREAKDOWN_LABELS[by]}: accuracy with its Wilson 95% interval and n (questions
        decided)
        {hasBaseline ? ", and the text-only baseline's beside it" : ""}.
      </p>
      <DataTable
        testId="qa-accuracy"
        columns={[
          { id: "run", header: "run", cell: (row) => labelOf.get(row.runId) },
          by !== "all" && {
            id: "group",
            header: "group",
            cell: (row) =>
              [
                row.format && FORMAT_LABELS[row.format],
                by.includes("category") && (row.category ?? "(no category)"),
                by.includes("granularity") && (row.granularity ?? "(no granularity)"),
              ]
                .filter(Boolean)
                .join(" · "),
          },
          {
            id: "accuracy",
            header: "accuracy",
            td: (row) => <AccuracyCell accuracy={row.outcomes.accuracy} testId="qa-accuracy-cell" />,
          },
          {
            id: "outcomes",
            header: "correct · wrong · unanswerable",
            className: "tabular-nums text-slate-600",
            cell: (row) => (
              <>
                {row.outcomes.correct} · {row.outcomes.wrong} · {row.outcomes.unanswerable}
                {row.outcomes.pending ? ` (${row.outcomes.pending} pending)` : ""}
              </>
            ),
          },
          hasBaseline && {
            id: "text-only",
            header: "without the video",
            td: (row) =>
              row.textOnly ? (
                <AccuracyCell accuracy={row.textOnly.accuracy} testId="qa-text-only-cell" />
              ) : (
                <td className="px-2 py-1 text-slate-500">no baseline</td>
              ),
          },
          hasBaseline && {
            id: "right-without-video",
            header: "right without the video",
            className: "tabular-nums",
            cellProps: () => ({ "data-testid": "qa-right-without-video" }),
            cell: (row) => (row.textOnly ? row.rightWithoutVideo : "—"),
          },
        ]}
        rows={rows}
        rowKey={(row) => `${row.runId}:${row.format}:${row.category}:${row.granularity}`}
        rowProps={(row) => ({
          "data-testid": "qa-accuracy-row",
          "data-run": row.runId,
          "data-format": row.format ?? "",
          "data-category": row.category ?? "",
          "data-granularity": row.granularity ?? "",
        })}
      />
    </Card>
  );
}

export function QaHeatmapCard({ overview, keep }: { overview: Overview; keep: KeepLink }) {
  const chosen = overview.chosen;
  return (
    <Card title="Model × category">
      <div className="overflow-x-auto">
        <table className="text-sm" data-testid="qa-heatmap">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="px-2 py-1 text-left">run</th>
              {overview.heatmap.categories.map((c) => (
                <th key={c ?? ""} className="max-w-32 px-2 py-1 text-left font-medium">
                  {c ?? "(no category)"}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chosen.map((run) => (
              <tr key={run.id}>
                <td className="px-2 py-1">{run.label}</td>
                {overview.heatmap.categories.map((category) => {
                  const cell = overview.heatmap.cells.find((x) => x.runId === run.id && x.category === category);
                  const accuracy = cell?.accuracy ?? null;
                  return (
                    <td
                      key={category ?? ""}
                      className="border border-white px-2 py-1 tabular-nums"
                      style={accuracy ? { background: heat(accuracy.value) } : undefined}
                      data-testid="qa-heat-cell"
                      data-run={run.id}
                      data-category={category ?? ""}
                    >
                      {accuracy ? (
                        <Link
                          href={keep({ listRunId: run.id, category: category ?? "(none)", page: undefined })}
                          title={`${formatPercent(accuracy.lower)}–${formatPercent(accuracy.upper)}, n=${accuracy.n}`}
                        >
                          {formatPercent(accuracy.value)} <span className="text-xs">n={accuracy.n}</span>
                        </Link>
                      ) : (
                        <span className="text-slate-500">—</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

export function QaFramesCard({ overview }: { overview: Overview }) {
  return (
    <Card title="8 against 16 frames">
      <DataTable
        testId="qa-frames"
        columns={[
          { id: "model", header: "model", cell: (f) => f.model },
          {
            id: "8",
            header: "8 frames",
            td: (f) => <AccuracyCell accuracy={f.runs.find((r) => r.frames === 8)?.accuracy ?? null} />,
          },
          {
            id: "16",
            header: "16 frames",
            td: (f) => <AccuracyCell accuracy={f.runs.find((r) => r.frames === 16)?.accuracy ?? null} />,
          },
          {
            id: "p",
            header: "McNemar p",
            className: "tabular-nums",
            cell: (f) => (f.comparison ? f.comparison.p.toPrecision(3) : "—"),
          },
        ]}
        rows={overview.frames}
        rowKey={(f) => f.model}
      />
    </Card>
  );
}

export function QaComparisonsCard({ overview, labelOf }: { overview: Overview; labelOf: Map<string, string> }) {
  return (
    <Card title="Pairwise comparison (McNemar's test on the questions both runs decided)">
      <DataTable
        testId="qa-comparisons"
        columns={[
          {
            id: "first",
            header: "first",
            cell: (c) => (
              <>
                {labelOf.get(c.first)}{" "}
                <span className="text-xs text-slate-500">
                  {c.firstAccuracy === null ? "" : formatPercent(c.firstAccuracy)}
                </span>
              </>
            ),
          },
          {
            id: "second",
            header: "second",
            cell: (c) => (
              <>
                {labelOf.get(c.second)}{" "}
                <span className="text-xs text-slate-500">
                  {c.secondAccuracy === null ? "" : formatPercent(c.secondAccuracy)}
                </span>
              </>
            ),
          },
          { id: "n", header: "n", className: "tabular-nums", cell: (c) => c.n },
          {
            id: "b",
            header: "first right, second wrong",
            className: "tabular-nums",
            cellProps: () => ({ "data-testid": "qa-comparison-b" }),
            cell: (c) => c.b,
          },
          {
            id: "c",
            header: "first wrong, second right",
            className: "tabular-nums",
            cellProps: () => ({ "data-testid": "qa-comparison-c" }),
            cell: (c) => c.c,
          },
          {
            id: "test",
            header: "test",
            cell: (c) => (c.method === "exact" ? "exact binomial" : `χ² = ${c.statistic!.toFixed(2)}`),
          },
          {
            id: "p",
            header: "p",
            className: "tabular-nums",
            cellProps: () => ({ "data-testid": "qa-comparison-p" }),
            cell: (c) => c.p.toPrecision(3),
          },
        ]}
        rows={overview.comparisons}
        rowKey={(c) => `${c.first}:${c.second}`}
        rowProps={() => ({ "data-testid": "qa-comparison" })}
      />
    </Card>
  );
}

function QaQuestionFilters({
  overview,
  listRun,
  query,
  options,
}: {
  overview: Overview;
  listRun: Run;
  query: QaPageQuery;
  options: Awaited<ReturnType<typeof qaFilterOptions>>;
}) {
  return (
    <form method="get" className="mb-3 flex flex-wrap items-end gap-3 text-sm" data-testid="qa-filters">
      {query.runId.map((id) => (
        <input key={id} type="hidden" name="runId" value={id} />
      ))}
      <input type="hidden" name="by" value={query.by} />
      <FilterSelect
        label="Run"
        name="listRunId"
        defaultValue={listRun.id}
        options={overview.runs.map((r) => ({ value: r.id, label: `${r.label} · ${runDate(r.createdAt)}` }))}
      />
      <FilterSelect
        label="Outcome"
        name="outcome"
        defaultValue={query.outcome ?? ""}
        empty="any"
        options={["correct", "wrong", "unanswerable", "pending"]}
        testId="filter-outcome"
      />
      <FilterSelect
        label="Format"
        name="questionFormat"
        defaultValue={query.questionFormat ?? ""}
        empty="any"
        options={Object.entries(FORMAT_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <FilterSelect
        label="Category"
        name="category"
        defaultValue={query.category ?? ""}
        empty="any"
        options={options.categories}
      />
      <FilterSelect
        label="Granularity"
        name="granularity"
        defaultValue={query.granularity ?? ""}
        empty="any"
        options={["coarse", "fine"]}
      />
      <VideoFilterSelect videos={options.videos} defaultValue={query.videoId} />
      {listRun.settings.textOnlyBaseline && (
        <FilterSelect
          label="Flag"
          name="flag"
          defaultValue={query.flag ?? ""}
          empty="any"
          options={[{ value: "right_without_video", label: "answered right without the video" }]}
          testId="filter-flag"
        />
      )}
      <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Apply</button>
    </form>
  );
}

/**
 * The question list's columns: video, question (its page), format, category, answer, what decided it, outcome, and
 * the text-only baseline's when the run has one.
 */
function questionColumns(
  projectId: string,
  textOnlyBaseline: Run["settings"]["textOnlyBaseline"],
): (Column<QuestionList["questions"][number]> | false | null | undefined)[] {
  return [
    {
      id: "video",
      header: "video",
      className: "max-w-40 truncate font-mono text-xs",
      cellProps: (q) => ({ title: q.video.relativePath }),
      cell: (q) => q.video.relativePath,
    },
    {
      id: "question",
      header: "question",
      className: "max-w-80 truncate",
      cellProps: (q) => ({ title: q.question }),
      cell: (q) => (
        <Link
          className="text-indigo-700 underline"
          href={`/projects/${projectId}/qa/${q.questionId}`}
          data-testid="question-link"
        >
          {q.question}
        </Link>
      ),
    },
    { id: "format", header: "format", cell: (q) => q.format },
    { id: "category", header: "category", cell: (q) => q.category ?? "—" },
    {
      id: "answer",
      header: "answer",
      className: "max-w-56 truncate",
      cellProps: (q) => ({ title: q.result.rawAnswer ?? "" }),
      cell: (q) => q.result.rawAnswer ?? "—",
    },
    {
      id: "decided-by",
      header: "decided by",
      cell: (q) =>
        q.result.decidedBy === "letter"
          ? `letter ${q.result.letter}`
          : q.result.decidedBy === "judge"
            ? `judge: ${q.result.judgement}`
            : "—",
    },
    {
      id: "outcome",
      header: "outcome",
      cell: (q) =>
        q.blind ? (
          <span
            className="rounded bg-slate-800 px-1 text-xs text-white"
            title="You are reviewing this video in a blind queue: shown once you submit"
          >
            blind
          </span>
        ) : (
          <OutcomeBadge outcome={q.result.outcome} />
        ),
    },
    textOnlyBaseline && {
      id: "text-only",
      header: "without the video",
      className: "flex items-center gap-1",
      cell: (q) => (
        <>
          <OutcomeBadge outcome={q.textOnly?.outcome ?? null} />
          {q.rightWithoutVideo && (
            <span
              className="rounded bg-violet-100 px-1.5 text-xs text-violet-800"
              data-testid="flag-right-without-video"
            >
              right without the video
            </span>
          )}
        </>
      ),
    },
  ];
}

/** One run's questions, filtered and paged, each with its answer and outcome. */
export function QaQuestionList({
  projectId,
  overview,
  listRun,
  list,
  query,
  options,
  keep,
}: {
  projectId: string;
  overview: Overview;
  listRun: Run;
  list: QuestionList;
  query: QaPageQuery;
  options: Awaited<ReturnType<typeof qaFilterOptions>>;
  keep: KeepLink;
}) {
  const pageCount = Math.max(1, Math.ceil(list.total / query.pageSize));
  return (
    <Card title={`Questions of ${listRun.label} (${list.total})`}>
      <QaQuestionFilters overview={overview} listRun={listRun} query={query} options={options} />
      <DataTable
        testId="qa-question-list"
        columns={questionColumns(projectId, listRun.settings.textOnlyBaseline)}
        rows={list.questions}
        rowKey={(q) => q.questionId}
        rowProps={(q) => ({
          "data-testid": "qa-question-row",
          "data-external-id": q.externalId,
          "data-outcome": q.result.outcome ?? "pending",
        })}
        empty="No question matches."
      />
      <PageLinks
        page={query.page}
        pageCount={pageCount}
        href={(page) => keep({ page: String(page), listRunId: listRun.id })}
      />
    </Card>
  );
}
