import Link from "next/link";
import { z } from "zod";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { LeaderboardPairsTable } from "@/components/leaderboard/leaderboard-tables";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { DataTable } from "@/components/ui/data-table";
import { prisma } from "@/lib/db/prisma";
import { AppError } from "@/lib/errors";
import { vbench2Leaderboard, type Vbench2Leaderboard } from "@/lib/tasks/vbench2/leaderboard";
import { vbench2PageChoices } from "@/lib/tasks/vbench2/page-data";
import { vbench2LeaderboardQuerySchema } from "@/lib/tasks/vbench2/results-query";
import { VBENCH2_CATEGORIES } from "@/lib/tasks/vbench2/vbench2-dimensions";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { WithheldError } from "@/lib/visibility/withheld";

const pct = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)}`);
const cell = (e: { value?: number | null; score?: number | null; lower: number | null; upper: number | null }) => {
  const value = e.value ?? e.score ?? null;
  return value === null
    ? "—"
    : e.lower === null || e.upper === null
      ? pct(value)
      : `${pct(value)} [${pct(e.lower)}, ${pct(e.upper)}]`;
};
type Generator = Vbench2Leaderboard["generators"][number];
const SOURCE_LABELS = { judge: "FrameJury's judge", vbench: "VBench's own results", humans: "people" } as const;

/** The generators of a VBench-2.0 run ranked by its total, with 95% intervals over prompts (owners, reviewers and viewers). */
export default async function Vbench2LeaderboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, catalogue } = await requirePageProjectAccess(projectId);
  const raw = searchParamsObject(await searchParams);
  const { runs } = await vbench2PageChoices(prisma, projectId, catalogue);
  let board: Vbench2Leaderboard | null = null;
  let problem: string | null = null;
  let withheld: WithheldError | null = null;
  const parsed = vbench2LeaderboardQuerySchema.safeParse({ ...raw, runId: raw.runId ?? runs[0]?.id });
  if (!parsed.success)
    problem = runs.length
      ? `Some parameters were not understood: ${parsed.error.issues.map((i) => i.message).join(" ")}`
      : null;
  else {
    try {
      board = await vbench2Leaderboard(prisma, actor, projectId, {
        runId: parsed.data.runId,
        labelSetId: parsed.data.labelSetId ?? null,
        samples: parsed.data.samples,
        seed: parsed.data.seed,
      });
    } catch (error) {
      if (error instanceof z.ZodError) problem = error.issues.map((i) => i.message).join(" ");
      else if (error instanceof WithheldError) withheld = error;
      else if (error instanceof AppError) problem = error.message;
      else throw error;
    }
  }
  const query = parsed.success
    ? `runId=${encodeURIComponent(parsed.data.runId)}${parsed.data.labelSetId ? `&labelSetId=${encodeURIComponent(parsed.data.labelSetId)}` : ""}`
    : "";
  const api = (format: string) => `/api/v1/projects/${projectId}/vbench2-leaderboard?${query}&format=${format}`;
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="VBench-2.0 leaderboard" />
      <p className="max-w-3xl text-sm text-slate-600">
        Generators (the videos&apos; model) ranked by VBench-2.0&apos;s total: the mean of the five category means, a
        dimension a generator has no video in counting 0. The 95% intervals resample prompts (a drawn prompt brings all
        its videos); each pair is compared over the prompts both have, with a two-sided bootstrap p-value. Scores are in
        percent.{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/vbench2?${query}`}>
          back to the results
        </Link>
      </p>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {withheld && <WithheldNotice message={withheld.message} withheld={withheld.withheld} />}
      {runs.length === 0 && (
        <EmptyState title="No VBench-2.0 runs yet">A leaderboard ranks the generators of a VBench-2.0 run.</EmptyState>
      )}
      {board && (
        <>
          <LeaderboardExports api={api} />
          <RankingCard board={board} />
          <DimensionsCard board={board} />
          <Card title="Pairs">
            <LeaderboardPairsTable pairs={board.pairs} percent />
          </Card>
          <RankingsCard board={board} />
        </>
      )}
    </div>
  );
}

/** The leaderboard's downloads: CSV, LaTeX (with or without intervals) and JSON. */
function LeaderboardExports({ api }: { api: (format: string) => string }) {
  return (
    <p className="flex flex-wrap gap-3 text-sm" data-testid="vbench2-leaderboard-exports">
      <a className="text-indigo-700 underline" href={api("csv")}>
        CSV
      </a>
      <a className="text-indigo-700 underline" href={api("latex")}>
        LaTeX
      </a>
      <a className="text-indigo-700 underline" href={`${api("latex")}&intervals=1`}>
        LaTeX with intervals
      </a>
      <a className="text-indigo-700 underline" href={api("json")}>
        JSON
      </a>
    </p>
  );
}

/** The generators ranked by total, with each category's score. */
function RankingCard({ board }: { board: Vbench2Leaderboard }) {
  return (
    <Card title="Ranking">
      <DataTable
        testId="vbench2-leaderboard"
        columns={[
          { id: "rank", header: "rank", cell: (g) => g.rank },
          { id: "generator", header: "generator", className: "font-medium", cell: (g) => g.model },
          {
            id: "total",
            header: "total [95%]",
            className: "tabular-nums",
            cellProps: () => ({ "data-testid": "vbench2-leaderboard-total" }),
            cell: (g) => cell(g.total),
          },
          ...Object.keys(VBENCH2_CATEGORIES).map((category) => ({
            id: category,
            header: category,
            className: "tabular-nums",
            cell: (g: Generator) => cell(g.categories[category] ?? { value: null, lower: null, upper: null }),
          })),
        ]}
        rows={board.generators}
        rowKey={(g) => g.model}
        rowProps={(g) => ({ "data-testid": "vbench2-leaderboard-row", "data-model": g.model })}
      />
    </Card>
  );
}

/** Each generator's score per dimension (the dimensions with no video here are counted, not listed). */
function DimensionsCard({ board }: { board: Vbench2Leaderboard }) {
  const dimensionsShown = board.result.dimensions.filter((d) => board.generators.some((g) => g.dimensions[d]!.n > 0));
  return (
    <Card title="Dimensions">
      <DataTable
        testId="vbench2-leaderboard-dimensions"
        columns={[
          { id: "dimension", header: "dimension", cell: (dimension) => dimension.replace(/_/g, " ") },
          {
            id: "source",
            header: "source",
            className: "text-slate-500",
            cell: (dimension) => SOURCE_LABELS[board.generators[0]!.dimensions[dimension]!.source],
          },
          ...board.generators.map((g) => ({
            id: g.model,
            header: g.model,
            className: "tabular-nums",
            cellProps: (dimension: string) => ({ title: `${g.dimensions[dimension]!.n} videos` }),
            cell: (dimension: string) => cell(g.dimensions[dimension]!),
          })),
        ]}
        rows={dimensionsShown}
        rowKey={(dimension) => dimension}
      />
      {dimensionsShown.length < board.result.dimensions.length && (
        <p className="mt-2 text-xs text-slate-500">
          The other {board.result.dimensions.length - dimensionsShown.length} dimensions have no video here: they count
          0 in their categories.
        </p>
      )}
    </Card>
  );
}

/** The generators' order by each source (judge, VBench's own results, people) and how the orders agree. */
function RankingsCard({ board }: { board: Vbench2Leaderboard }) {
  return (
    <Card title="Rankings by source">
      <ul className="text-sm" data-testid="vbench2-rankings">
        {Object.entries(board.rankings).map(([source, ranking]) => (
          <li key={source}>
            {SOURCE_LABELS[source as keyof typeof SOURCE_LABELS]}: {ranking.join(" > ")}
          </li>
        ))}
        {board.kendallTau.map((t) => (
          <li key={`${t.a}-${t.b}`} className="text-slate-600">
            Kendall&apos;s τ, {SOURCE_LABELS[t.a]} vs {SOURCE_LABELS[t.b]}:{" "}
            {t.tau === null ? "undefined" : t.tau.toFixed(2)}
          </li>
        ))}
      </ul>
      {board.leftOut.withoutModel > 0 && (
        <p className="mt-2 text-xs text-slate-500">
          Left out: {board.leftOut.withoutModel} video values without a generator.
        </p>
      )}
    </Card>
  );
}
