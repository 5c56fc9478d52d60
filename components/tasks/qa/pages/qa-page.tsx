import Link from "next/link";
import { LinkIfAllowed } from "@/components/link-if-allowed";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { PageLinks } from "@/components/ui/page-links";
import { DataTable } from "@/components/ui/data-table";
import { FILTER_INPUT, FilterSelect, VideoFilterSelect } from "@/components/ui/filter-select";
import { HarnessRunImport } from "@/components/tasks/qa/harness-run-import";
import { listItemSets } from "@/lib/items/item-sets";
import { listEndpoints } from "@/lib/judge/endpoints";
import { AccuracyCell, formatPercent, OutcomeBadge } from "@/components/tasks/qa/qa-format";
import { TargetLegend } from "@/components/tasks/target-legend";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { qaPageQuerySchema } from "@/lib/tasks/qa/qa-query";
import { qaFilterOptions } from "@/lib/tasks/qa/qa-questions";
import { qaPageOverview, runQaResults } from "@/lib/tasks/qa/visible-qa-results";
import { runExportsWithheld } from "@/lib/export/run-downloads";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { withheldReason } from "@/lib/visibility/withheld";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { runDate } from "@/lib/runs/run-name";

const BREAKDOWN_LABELS = {
  all: "overall",
  format: "format",
  category: "category",
  granularity: "granularity",
  format_category_granularity: "format × category × granularity",
} as const;
const FORMAT_LABELS: Record<string, string> = { mc: "multiple choice", open: "open-ended" };

/** A heat-map cell's background: darker green toward 100%, darker red toward 0%. */
function heat(value: number): string {
  const strength = Math.abs(value - 0.5) * 2;
  return value >= 0.5 ? `rgba(16, 185, 129, ${0.1 + 0.5 * strength})` : `rgba(239, 68, 68, ${0.1 + 0.5 * strength})`;
}

export default async function QaPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, role } = await requirePageProjectAccess(projectId);
  const rawParams = await searchParams;
  const runIds = ([] as string[]).concat(rawParams.runId ?? []).filter(Boolean);
  const raw = { ...searchParamsObject(rawParams), ...(runIds.length ? { runId: runIds } : {}) };
  const parsed = qaPageQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : qaPageQuerySchema.parse({});
  let problem = parsed.success
    ? null
    : `Some parameters were not understood and were ignored: ${parsed.error.issues.map((i) => i.path.join(".") || i.message).join(", ")}.`;
  const options = await qaFilterOptions(prisma, actor, projectId);
  let shown: Awaited<ReturnType<typeof qaPageOverview>> | null = null;
  try {
    shown = await qaPageOverview(prisma, actor, projectId, { runId: query.runId, format: "json" });
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof ValidationError)) throw error;
    problem = error.message;
    shown = await qaPageOverview(prisma, actor, projectId, { runId: [], format: "json" });
  }
  // While the user reviews some of the compared runs' videos blind, the aggregates and the downloads they hold are withheld whole.
  const { overview, withheld } = shown;
  const chosen = overview.chosen;
  const labelOf = new Map(chosen.map((r) => [r.id, r.label]));
  const listRun =
    chosen.find((r) => r.id === query.listRunId) ??
    overview.runs.find((r) => r.id === query.listRunId) ??
    chosen[0] ??
    null;
  let list: Awaited<ReturnType<typeof runQaResults>> | null = null;
  if (listRun) {
    try {
      list = await runQaResults(prisma, actor, listRun.id, { ...query, format: "json" });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problem = error.message;
      list = await runQaResults(prisma, actor, listRun.id, { page: 1, pageSize: query.pageSize, format: "json" });
    }
  }
  const rows = overview.rows.filter((r) => r.breakdown === query.by);
  const hasBaseline = chosen.some((r) => r.settings.textOnlyBaseline);
  const canExport = roleCan(role, "export.read");
  const compared = chosen.map((r) => `runId=${r.id}`).join("&");
  const answersWithheld = canExport
    ? await Promise.all(chosen.map((run) => runExportsWithheld(prisma, actor.userId, run.id)))
    : [];
  const exportsWithheld = withheld ?? answersWithheld.find((w) => w !== null) ?? null;
  const downloads = [
    ...(chosen.length && !withheld
      ? [
          {
            label: "Accuracy CSV",
            href: `/api/v1/projects/${projectId}/qa-accuracy?${compared}&format=csv`,
            filename: `qa-accuracy-${projectId}.csv`,
            kind: "csv" as const,
          },
          {
            label: "Accuracy JSONL",
            href: `/api/v1/projects/${projectId}/qa-accuracy?${compared}&format=jsonl`,
            filename: `qa-accuracy-${projectId}.jsonl`,
            kind: "jsonl" as const,
          },
        ]
      : []),
    ...chosen.flatMap((run, i) =>
      (answersWithheld[i] ? [] : (["csv", "jsonl"] as const)).map((format) => ({
        label: `${run.label} answers ${format.toUpperCase()}`,
        href: `/api/v1/runs/${run.id}/qa?format=${format}`,
        filename: `qa-${run.id}.${format}`,
        kind: format,
      })),
    ),
  ];
  const keep = (change: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const id of chosen.map((r) => r.id)) if (query.runId.length) search.append("runId", id);
    for (const [k, v] of Object.entries({ ...searchParamsObject(rawParams), ...change }))
      if (k !== "runId" && v) search.set(k, v);
    return `/projects/${projectId}/qa?${search}`;
  };
  const pageCount = Math.max(1, Math.ceil((list?.total ?? 0) / query.pageSize));
  const task = BUILT_IN_DECLARATIONS.taskOf("qa");
  const harnessSets =
    roleCan(role, "runs.manage") && options.questionSets > 0
      ? (await listItemSets(prisma, actor, projectId, ["questions"])).map((set) => ({ id: set.id, name: set.name }))
      : [];
  const judgeEndpoints =
    harnessSets.length > 0
      ? (await listEndpoints(prisma, actor, projectId)).map((e) => ({ id: e.id, name: e.name }))
      : [];

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Video QA" />
      <p className="text-sm text-slate-600">
        How well video-LLMs answer a lab&apos;s questions about its videos (seed 004&apos;s InstructionBench
        evaluation). Import question sets on the{" "}
        <LinkIfAllowed allowed={roleCan(role, "videos.import")} href={`/projects/${projectId}/import`}>
          Import
        </LinkIfAllowed>{" "}
        page, extract each video&apos;s{" "}
        <LinkIfAllowed
          allowed={roleCan(role, "videos.import")}
          href={`/projects/${projectId}/pending?uniform=8&resize=quarter`}
        >
          uniform frames
        </LinkIfAllowed>
        , and start QA runs on the{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/judge`}>
          Judge
        </Link>{" "}
        page. Accuracy counts the questions decided correct or wrong (n); unanswerable ones (a call or the judge failed)
        are counted beside it.
      </p>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {overview.runs.length === 0 ? (
        <EmptyState title="No QA runs yet">
          {options.questionSets === 0
            ? "Import a question set, then run a model on it from the Judge page."
            : "Run a model on a question set from the Judge page; its accuracy shows here."}
        </EmptyState>
      ) : (
        <>
          <form method="get" className="flex flex-col gap-2 text-sm" data-testid="qa-runs">
            <span className="font-medium text-slate-700">
              Runs compared (default: the latest run of each model at each frame count)
            </span>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {overview.runs.map((run) => (
                <label key={run.id} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    name="runId"
                    value={run.id}
                    defaultChecked={chosen.some((c) => c.id === run.id)}
                  />
                  {run.label}
                  {run.settings.textOnlyBaseline ? " + text-only" : ""} · {runDate(run.createdAt)} · {run.status}
                  {run.simulated && <span className="rounded bg-amber-100 px-1 text-xs text-amber-800">simulated</span>}
                </label>
              ))}
            </div>
            <label className="flex items-center gap-2">
              Accuracy by
              <select name="by" defaultValue={query.by} className={FILTER_INPUT} data-testid="qa-by">
                {Object.entries(BREAKDOWN_LABELS).map(([id, label]) => (
                  <option key={id} value={id}>
                    {label}
                  </option>
                ))}
              </select>
              <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Apply</button>
            </label>
          </form>

          {withheld ? (
            <Card title="Accuracy">
              <WithheldNotice
                message={`The accuracy of these runs is ${withheldReason(withheld)}. It is computed from every question, so it is shown once you have submitted them.`}
                withheld={withheld}
              />
            </Card>
          ) : (
            <>
              <Card title="Accuracy">
                <p className="mb-2 text-xs text-slate-500">
                  Per run (model · frames) and {BREAKDOWN_LABELS[query.by]}: accuracy with its Wilson 95% interval and n
                  (questions decided)
                  {hasBaseline ? ", and the text-only baseline's beside it" : ""}.
                </p>
                <DataTable
                  testId="qa-accuracy"
                  columns={[
                    { id: "run", header: "run", cell: (row) => labelOf.get(row.runId) },
                    query.by !== "all" && {
                      id: "group",
                      header: "group",
                      cell: (row) =>
                        [
                          row.format && FORMAT_LABELS[row.format],
                          query.by.includes("category") && (row.category ?? "(no category)"),
                          query.by.includes("granularity") && (row.granularity ?? "(no granularity)"),
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
                            const cell = overview.heatmap.cells.find(
                              (x) => x.runId === run.id && x.category === category,
                            );
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

              {overview.frames.length > 0 && (
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
              )}

              {overview.comparisons.length > 0 && (
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
              )}
            </>
          )}

          <Card title="Reviewers and agreement">
            <p className="mb-2 text-xs text-slate-500">
              Reviewers mark any answer correct or wrong on its question&apos;s page, or in a review queue over a
              run&apos;s answers the judge decided. The agreement report compares them with the judge (κ, confusion, by
              category, format and model) and with each other.
            </p>
            <ul className="flex flex-col gap-1 text-sm" data-testid="qa-agreement-links">
              {chosen.map((run) => (
                <li key={run.id}>
                  {run.label}:{" "}
                  <Link
                    className="text-indigo-700 underline"
                    href={`/projects/${projectId}/agreement?runId=${run.id}`}
                    data-testid="qa-agreement-link"
                    data-run={run.id}
                  >
                    agreement
                  </Link>
                  {roleCan(role, "queues.manage") && (
                    <>
                      {" · "}
                      <Link
                        className="text-indigo-700 underline"
                        href={`/projects/${projectId}/queues/new?runId=${run.id}`}
                      >
                        new review queue
                      </Link>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </Card>

          {canExport && (downloads.length > 0 || exportsWithheld) && (
            <Card title="Exports">
              {exportsWithheld && (
                <WithheldNotice
                  message={`Downloads of these runs are ${withheldReason(exportsWithheld)}.`}
                  withheld={exportsWithheld}
                />
              )}
              {downloads.length > 0 && <ExportButtons downloads={downloads} />}
              <p className="mt-2 text-xs text-slate-500">
                Accuracy: one row per run and group with its interval. Answers: every question of the run with the raw
                answer, the letter or the judge&apos;s decision and reason, and the baseline&apos;s.
              </p>
            </Card>
          )}

          {listRun && list && (
            <Card title={`Questions of ${listRun.label} (${list.total})`}>
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
              <DataTable
                testId="qa-question-list"
                columns={[
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
                  listRun.settings.textOnlyBaseline && {
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
                ]}
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
          )}
          <TargetLegend task={task} title="Legend: video QA" />
        </>
      )}
      {harnessSets.length > 0 && (
        <HarnessRunImport
          projectId={projectId}
          questionSets={harnessSets}
          judgeEndpoints={judgeEndpoints}
          baselineRuns={overview.runs
            .filter((r) => r.status === "done" && (r.textOnly || r.settings.textOnlyBaseline))
            .map((r) => ({ id: r.id, label: r.label }))}
        />
      )}
    </div>
  );
}
