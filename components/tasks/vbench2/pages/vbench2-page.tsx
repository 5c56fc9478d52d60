import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { type Column, DataTable } from "@/components/ui/data-table";
import { FilterSelect } from "@/components/ui/filter-select";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError, ValidationError } from "@/lib/errors";
import {
  chosenLabelSetId,
  NO_LABEL_SET,
  runFrameStrips,
  videoSlice,
  vbench2PageChoices,
  vbench2PageQuerySchema,
} from "@/lib/tasks/vbench2/page-data";
import { VBENCH2_CATEGORIES } from "@/lib/tasks/vbench2/vbench2-dimensions";
import { vbench2ResultsView, type VisibleVbench2Results } from "@/lib/tasks/vbench2/visible-results";
import { searchParamsObject } from "@/lib/videos/video-filter";
import type { z } from "zod";
import { withheldReason, type Withheld } from "@/lib/visibility/withheld";
import { DimensionVideos } from "../dimension-videos";
import { AgreementCell, Percent } from "../results-cells";

type Results = VisibleVbench2Results;

/** The dimensions table's rows: each category's mean above its dimensions, then the total. */
type DimensionRow =
  | { kind: "category"; category: string }
  | { kind: "dimension"; dimension: string; d: Results["dimensions"][number] | undefined }
  | { kind: "total" };

/** A category's and the total's row span the name and source columns, and leave the agreement columns empty. */
const dimensionColumns = (results: Results, peopleAnswered: boolean): Column<DimensionRow>[] => [
  {
    id: "dimension",
    header: "dimension",
    cellProps: (row) => (row.kind === "dimension" ? { className: "pl-5" } : { colSpan: 2 }),
    cell: (row) =>
      row.kind === "category"
        ? row.category
        : row.kind === "dimension"
          ? row.dimension.replace(/_/g, " ")
          : "Total (mean of the five categories)",
  },
  {
    id: "source",
    header: "source",
    className: "text-slate-500",
    cell: (row) =>
      row.kind === "dimension" && row.d
        ? row.d.source === "judge"
          ? "FrameJury's judge"
          : "VBench (imported)"
        : "none (counts 0)",
  },
  {
    id: "judge",
    header: "judge",
    className: "tabular-nums",
    cellProps: (row) =>
      row.kind === "category"
        ? { "data-testid": `vbench2-category-${row.category}` }
        : row.kind === "total"
          ? { "data-testid": "vbench2-total" }
          : {},
    cell: (row) => (
      <Percent
        value={
          row.kind === "category"
            ? (results.categories[row.category] ?? null)
            : row.kind === "total"
              ? results.total
              : (row.d?.score ?? null)
        }
      />
    ),
  },
  {
    id: "videos",
    header: "videos (excluded)",
    className: "tabular-nums text-slate-600",
    cell: (row) =>
      row.kind !== "dimension" ? null : row.d ? `${row.d.n}${row.d.excluded ? ` (${row.d.excluded})` : ""}` : "—",
  },
  {
    id: "people",
    header: "people",
    className: "tabular-nums",
    cell: (row) =>
      row.kind === "dimension" ? (
        row.d?.humanN ? (
          <Percent value={row.d.humanScore} />
        ) : (
          "—"
        )
      ) : (
        <Percent
          value={
            !peopleAnswered
              ? null
              : row.kind === "category"
                ? (results.humans.categories[row.category] ?? null)
                : results.humans.total
          }
        />
      ),
  },
  {
    id: "vbench",
    header: "VBench",
    className: "tabular-nums",
    cellProps: (row) => (row.kind === "dimension" ? {} : { colSpan: 3 }),
    cell: (row) =>
      row.kind === "dimension" && row.d?.vbenchN ? (
        <Percent value={row.d.vbenchScore} />
      ) : row.kind === "dimension" ? (
        "—"
      ) : null,
  },
  {
    id: "judge-vs-vbench",
    header: "judge vs VBench",
    td: (row) => <AgreementCell agreement={(row.kind === "dimension" && row.d?.judgeVsVbench) || null} unit="videos" />,
  },
  {
    id: "judge-vs-people",
    header: "judge vs people",
    td: (row) => (
      <AgreementCell agreement={(row.kind === "dimension" && row.d?.judgeVsHumans) || null} unit="questions" />
    ),
  },
];

/** The VBench-2.0 results page: the run and label set chosen, the dimensions' table, and each dimension's videos. */
export default async function Vbench2Page({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, catalogue } = await requirePageProjectAccess(projectId);
  const parsed = vbench2PageQuerySchema.safeParse(searchParamsObject(await searchParams));
  const query = parsed.success ? parsed.data : {};
  const { runs, labelSets } = await vbench2PageChoices(prisma, projectId, catalogue);
  const runId = query.runId ?? runs[0]?.id;
  const labelSetId = chosenLabelSetId(query, labelSets);
  let problem = parsed.success ? null : "Some parameters were not understood and were ignored.";
  let results: Results | null = null;
  let withheld: Withheld | null = null;
  let generatorFiles: { model: string; withheld: boolean }[] = [];
  if (runId) {
    try {
      // Whole or withheld: while any of the run's videos is blind to the caller, no table, section or count is shown.
      ({
        results,
        withheld,
        generators: generatorFiles,
      } = await vbench2ResultsView(prisma, actor, projectId, runId, { labelSetId }));
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof ValidationError)) throw error;
      problem = error.message;
    }
  }
  // People's categories and total mean something only once someone answered a question.
  const peopleAnswered = results?.dimensions.some((d) => d.humanN > 0 || d.humanScore !== null) ?? false;
  // A generator's eval_results file is whole or withheld (409) while the caller reviews any of its videos blind:
  // the files still whole are offered even while the results are withheld.
  const evalFiles = generatorFiles.filter((g) => !g.withheld).map((g) => g.model);
  const api = runId ? `/api/v1/runs/${runId}/vbench2` : null;
  const labelQuery = labelSetId ? `&labelSetId=${encodeURIComponent(labelSetId)}` : "";
  const { videoLists, strips } = await dimensionVideoLists(runId, results, query);
  const listHref =
    (dimension: string) =>
    ({ show, page }: { show: string; page: number }) =>
      `/projects/${projectId}/vbench2?${new URLSearchParams({ runId: runId ?? "", labelSetId: labelSetId ?? NO_LABEL_SET, dimension, show, page: String(page) })}#vbench2-videos-${dimension}`;
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="VBench-2.0 results" />
      <Vbench2Intro projectId={projectId} />
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {runs.length === 0 ? (
        <EmptyState title="No VBench-2.0 runs yet">
          Start one on the Judge page with the VBench-2.0 task, after importing a sample folder and
          VBench2_full_info.json.
        </EmptyState>
      ) : (
        <Vbench2Choose runs={runs} runId={runId} labelSets={labelSets} labelSetId={labelSetId} />
      )}
      {withheld && (
        <WithheldNotice message={`The VBench-2.0 results are ${withheldReason(withheld)}.`} withheld={withheld} />
      )}
      {withheld && api && evalFiles.length > 0 && (
        <p className="flex flex-wrap gap-3 text-sm" data-testid="vbench2-exports">
          <EvalFileLinks api={api} evalFiles={evalFiles} />
        </p>
      )}
      {results && api && (
        <>
          <ResultsExports projectId={projectId} runId={runId} api={api} labelQuery={labelQuery} evalFiles={evalFiles} />
          <DimensionsCard results={results} peopleAnswered={peopleAnswered} />
          {videoLists.map(({ dimension, slice, show, open }) => (
            <DimensionVideos
              key={dimension}
              projectId={projectId}
              dimension={dimension}
              slice={slice}
              show={show}
              open={open}
              strips={strips}
              href={listHref(dimension)}
            />
          ))}
        </>
      )}
    </div>
  );
}

/** What the results page computes and how: VBench-2.0's own scoring, its own results, people's values. */
function Vbench2Intro({ projectId }: { projectId: string }) {
  return (
    <p className="text-sm text-slate-600">
      The twelve VLM-judged dimensions as VBench-2.0&apos;s code scores them (each video&apos;s value by the
      dimension&apos;s rule, the score over the videos that are not -1), the six others from VBench&apos;s own results
      when a results label set is chosen, the five category means and the total as its cal_final_score.py computes them.
      People&apos;s values are recomputed from their answers to the questions. See{" "}
      <Link className="text-indigo-700 underline" href={`/projects/${projectId}/judge`}>
        Judge
      </Link>{" "}
      to start a run.
    </p>
  );
}

/** The results' downloads (JSON, each generator's eval_results file) and the generator leaderboard's link. */
function ResultsExports({
  projectId,
  runId,
  api,
  labelQuery,
  evalFiles,
}: {
  projectId: string;
  runId: string | undefined;
  api: string;
  labelQuery: string;
  evalFiles: string[];
}) {
  return (
    <p className="flex flex-wrap gap-3 text-sm" data-testid="vbench2-exports">
      <a className="text-indigo-700 underline" href={`${api}?format=json${labelQuery}`}>
        JSON
      </a>
      <EvalFileLinks api={api} evalFiles={evalFiles} />
      <Link
        className="text-indigo-700 underline"
        href={`/projects/${projectId}/vbench2/leaderboard?runId=${runId}${labelQuery}`}
        data-testid="vbench2-leaderboard-link"
      >
        generator leaderboard
      </Link>
    </p>
  );
}

/** The run shown and the label set of VBench's own results beside it. */
function Vbench2Choose({
  runs,
  runId,
  labelSets,
  labelSetId,
}: {
  runs: Awaited<ReturnType<typeof vbench2PageChoices>>["runs"];
  runId: string | undefined;
  labelSets: Awaited<ReturnType<typeof vbench2PageChoices>>["labelSets"];
  labelSetId: string | null;
}) {
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="vbench2-choose">
      <FilterSelect
        label="Run"
        labelClassName="font-medium text-slate-700"
        name="runId"
        defaultValue={runId}
        options={runs.map((run) => ({
          value: run.id,
          label: `${run.label} · ${run.status}${run.simulated ? " · simulated" : ""}`,
        }))}
      />
      <FilterSelect
        label="VBench's own results (label set)"
        labelClassName="font-medium text-slate-700"
        name="labelSetId"
        defaultValue={labelSetId ?? NO_LABEL_SET}
        options={[
          { value: NO_LABEL_SET, label: "none" },
          ...labelSets.map((set) => ({ value: set.id, label: set.name })),
        ]}
      />
      <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Show</button>
    </form>
  );
}

/** Every dimension under its category, then the total. */
function DimensionsCard({ results, peopleAnswered }: { results: Results; peopleAnswered: boolean }) {
  return (
    <Card title="All dimensions">
      <DataTable
        testId="vbench2-dimensions"
        columns={dimensionColumns(results, peopleAnswered)}
        rows={[
          ...Object.entries(VBENCH2_CATEGORIES).flatMap(([category, dimensions]): DimensionRow[] => [
            { kind: "category", category },
            ...dimensions.map((dimension) => ({
              kind: "dimension" as const,
              dimension,
              d: results.dimensions.find((entry) => entry.dimension === dimension),
            })),
          ]),
          { kind: "total" },
        ]}
        rowKey={(row) => (row.kind === "category" ? row.category : row.kind === "dimension" ? row.dimension : "total")}
        rowProps={(row) =>
          row.kind === "category"
            ? { className: "bg-slate-50 font-medium" }
            : row.kind === "total"
              ? { className: "border-t-2 border-slate-300 font-semibold" }
              : { "data-testid": `vbench2-row-${row.dimension}` }
        }
      />
    </Card>
  );
}

/** Each judged dimension's videos a page at a time (the dimension the query names opens at its filter and page), with their frame strips. */
async function dimensionVideoLists(
  runId: string | undefined,
  results: Results | null,
  query: Partial<z.output<typeof vbench2PageQuerySchema>>,
) {
  const videoLists = (results?.dimensions ?? [])
    .filter((d) => d.source === "judge")
    .map((d) => {
      const named = query.dimension === d.dimension;
      const show = (named && query.show) || "all";
      return {
        dimension: d.dimension,
        show,
        open: named,
        slice: videoSlice(d.videos, show, named ? (query.page ?? 1) : 1),
      };
    });
  const strips =
    runId && results
      ? await runFrameStrips(
          prisma,
          runId,
          videoLists.flatMap((list) => list.slice.videos.map((v) => v.videoId)),
        )
      : new Map();
  return { videoLists, strips };
}

/** Each generator's eval_results.json, as VBench-2.0's own code writes it. */
function EvalFileLinks({ api, evalFiles }: { api: string; evalFiles: string[] }) {
  return evalFiles.map((model) => (
    <a
      key={model}
      className="text-indigo-700 underline"
      href={`${api}?format=eval_results&model=${encodeURIComponent(model)}`}
    >
      {model}_eval_results.json
    </a>
  ));
}
