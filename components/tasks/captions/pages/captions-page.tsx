import Link from "next/link";
import { LinkIfAllowed } from "@/components/link-if-allowed";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { CaptionType, Flag, MetricCell } from "@/components/tasks/captions/caption-format";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { PageLinks } from "@/components/ui/page-links";
import { type Column, DataTable } from "@/components/ui/data-table";
import { FilterSelect, VideoFilterSelect } from "@/components/ui/filter-select";
import { TargetLegend } from "@/components/tasks/target-legend";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { captionFilterOptions } from "@/lib/tasks/captions/caption-detail";
import type { CaptionRunSummary } from "@/lib/tasks/captions/caption-overview";
import { CAPTION_FLAGS, captionListQuerySchema } from "@/lib/tasks/captions/caption-query";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import { projectCaptionOverview } from "@/lib/tasks/captions/visible-caption-results";
import { runExportsWithheld } from "@/lib/export/run-downloads";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { withheldReason } from "@/lib/visibility/withheld";
import { searchParamsObject } from "@/lib/videos/video-filter";
import type { z } from "zod";
import { runName } from "@/lib/run-records/run-name";

const FLAG_LABELS: Record<(typeof CAPTION_FLAGS)[number], string> = {
  judge_broke_rule: "judge broke the rule",
  length_violation: "a length rule failed",
};
const runLabel = (r: CaptionRunSummary, catalogue: DeclarationCatalogue) =>
  `${runName({ pipeline: r.pipeline, endpointName: r.endpointName, model: null, createdAt: r.createdAt }, catalogue)} · ${r.status}${r.simulated ? " · simulated" : ""}${r.wordCounting === "anycapeval" ? " · words counted as AnyCapEval" : ""}`;

type LeaderboardRow = NonNullable<Awaited<ReturnType<typeof projectCaptionOverview>>["leaderboard"]>["rows"][number];
type CaptionListRow = Awaited<ReturnType<typeof projectCaptionOverview>>["captions"][number];

const LEADERBOARD_COLUMNS: Column<LeaderboardRow>[] = [
  { id: "model", header: "model", cell: (row) => row.model },
  {
    id: "type",
    header: "caption type",
    cell: (row) => (row.captionType === null ? "all types" : <CaptionType type={row.captionType} />),
  },
  { id: "style", header: "style", td: (row) => <MetricCell metric={row.styleScore} testId="lb-style" /> },
  {
    id: "coverage",
    header: "content coverage",
    td: (row) => <MetricCell metric={row.contentCoverage} percent testId="lb-coverage" />,
  },
  {
    id: "violations",
    header: "length violations",
    td: (row) => <MetricCell metric={row.lengthViolationRate} percent testId="lb-violations" />,
  },
];

/** A blind caption's judge columns are one cell saying why they are hidden. */
const captionColumns = (projectId: string): Column<CaptionListRow>[] => [
  {
    id: "video",
    header: "video",
    className: "max-w-48 truncate font-mono text-xs",
    cell: (c) => c.video.relativePath,
    cellProps: (c) => ({ title: c.video.relativePath }),
  },
  { id: "type", header: "type", cell: (c) => <CaptionType type={c.captionType} /> },
  { id: "model", header: "model", cell: (c) => c.model },
  {
    id: "output",
    header: "output",
    className: "max-w-80 truncate",
    cellProps: (c) => ({ title: c.output }),
    cell: (c) => (
      <Link
        className="text-indigo-700 underline"
        href={`/projects/${projectId}/captions/${c.captionId}`}
        data-testid="caption-link"
      >
        {c.output.slice(0, 120) || "(empty)"}
      </Link>
    ),
  },
  {
    id: "judge",
    header: "judge",
    cellProps: (c) =>
      c.blind
        ? { colSpan: 4, className: "text-xs text-slate-500", "data-testid": "caption-blind" }
        : { className: "tabular-nums" },
    cell: (c) =>
      c.blind
        ? "hidden while you review this video in a blind queue"
        : c.style
          ? (c.style.rawScore ?? c.style.status)
          : "—",
  },
  {
    id: "after-rules",
    header: "after rules",
    className: "tabular-nums",
    cell: (c) => (c.style ? (c.style.scoreAfterRules ?? "—") : "—"),
  },
  {
    id: "key-points",
    header: "key points",
    className: "tabular-nums",
    cell: (c) =>
      c.content ? (c.content.hit === null ? c.content.status : `${c.content.hit}/${c.content.total}`) : "—",
  },
  {
    id: "flags",
    header: "flags",
    className: "flex flex-wrap gap-1",
    cell: (c) => (
      <>
        <Flag on={c.style?.flags?.judgeBrokeRule ?? false} label="judge broke the rule" testId="flag-broke-rule" />
        <Flag
          on={(c.style?.flags?.lengthViolation ?? false) && !(c.style?.flags?.judgeBrokeRule ?? false)}
          label="length rule failed"
        />
      </>
    ),
  },
];

/** The captions page: filters, the leaderboard, the exports and the judged captions of the style and content runs. */
export default async function CaptionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, role, catalogue, access } = await requirePageProjectAccess(projectId);
  const raw = searchParamsObject(await searchParams);
  const parsed = captionListQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : captionListQuerySchema.parse({});
  let problem = parsed.success
    ? null
    : `Some filters were not understood and were ignored: ${parsed.error.issues.map((i) => i.path.join(".") || i.message).join(", ")}.`;
  const options = await captionFilterOptions(prisma, access);
  let overview: Awaited<ReturnType<typeof projectCaptionOverview>> | null = null;
  try {
    overview = await projectCaptionOverview(prisma, access, query);
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof ValidationError)) throw error;
    problem = error.message;
  }
  const runs = overview?.runs ?? [];
  const { style, content } = overview ?? { style: null, content: null };
  const canExport = roleCan(role, "export.read");
  const runIds = [style, content]
    .filter((r): r is CaptionRunSummary => r !== null)
    .map((r) => `runId=${r.id}`)
    .join("&");
  // While the user reviews some of the runs' videos blind, the leaderboard and the downloads holding them are withheld whole.
  const leaderboardWithheld = overview?.leaderboardWithheld ?? null;
  const [styleWithheld, contentWithheld] = canExport
    ? await Promise.all([style, content].map((run) => (run ? runExportsWithheld(prisma, actor.userId, run.id) : null)))
    : [null, null];
  const exportsWithheld = leaderboardWithheld ?? styleWithheld ?? contentWithheld ?? null;
  const downloads = captionDownloads(
    projectId,
    runIds,
    leaderboardWithheld,
    [style, content],
    [styleWithheld, contentWithheld],
  );
  const pageCount = Math.max(1, Math.ceil((overview?.total ?? 0) / query.pageSize));
  const pageHref = (page: number) => captionsPageHref(projectId, raw, page);

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Captions" />
      <CaptionsIntro projectId={projectId} canImport={roleCan(role, "videos.import")} />
      <CaptionFilters {...{ style, content, runs, query, options, catalogue }} />
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {overview && !style && !content ? (
        <EmptyState title="No caption runs yet">
          {options.models.length === 0
            ? "Import a caption reference set and models' outputs, then run the caption judges."
            : "Run the caption judges (style and content) on the Judge page; their results show here."}
        </EmptyState>
      ) : overview ? (
        <>
          <LeaderboardCard overview={overview} leaderboardWithheld={leaderboardWithheld} />
          {canExport && (downloads.length > 0 || exportsWithheld) && (
            <ExportsCard downloads={downloads} exportsWithheld={exportsWithheld} />
          )}
          <Card title={`Captions (${overview.total})`}>
            <DataTable
              testId="caption-list"
              columns={captionColumns(projectId)}
              rows={overview.captions}
              rowKey={(c) => c.captionId}
              rowProps={(c) => ({
                "data-testid": "caption-row",
                "data-model": c.model ?? "",
                "data-type": c.captionType,
              })}
              empty="No caption matches."
            />
            <PageLinks page={query.page} pageCount={pageCount} href={pageHref} />
          </Card>
          <div className="grid gap-3 lg:grid-cols-2">
            <TargetLegend task={BUILT_IN_DECLARATIONS.taskOf("caption_style")} title="Legend: caption style" />
            <TargetLegend task={BUILT_IN_DECLARATIONS.taskOf("caption_content")} title="Legend: caption content" />
          </div>
        </>
      ) : null}
    </div>
  );
}

type Overview = Awaited<ReturnType<typeof projectCaptionOverview>>;
type Withheld = Overview["leaderboardWithheld"];

/** What the captions page shows and where captions come from: the import, the uniform frames and the Judge page. */
function CaptionsIntro({ projectId, canImport }: { projectId: string; canImport: boolean }) {
  return (
    <p className="text-sm text-slate-600">
      Captions that video-LLMs wrote, judged for style (seed 003&apos;s rubric, with FrameJury&apos;s length rules) and
      content (AnyCapEval&apos;s key points). Import reference sets and models&apos; outputs on the{" "}
      <LinkIfAllowed allowed={canImport} href={`/projects/${projectId}/import`}>
        Import
      </LinkIfAllowed>{" "}
      page, extract each video&apos;s{" "}
      <LinkIfAllowed allowed={canImport} href={`/projects/${projectId}/pending?uniform=8`}>
        uniform frames
      </LinkIfAllowed>
      , and start caption runs on the{" "}
      <Link className="text-indigo-700 underline" href={`/projects/${projectId}/judge`}>
        Judge
      </Link>{" "}
      page.
    </p>
  );
}

/** The downloads of the leaderboard and the runs' captions, or why they are withheld. */
function ExportsCard({
  downloads,
  exportsWithheld,
}: {
  downloads: ReturnType<typeof captionDownloads>;
  exportsWithheld: Withheld;
}) {
  return (
    <Card title="Exports">
      {exportsWithheld && (
        <WithheldNotice
          message={`Downloads of these runs are ${withheldReason(exportsWithheld)}.`}
          withheld={exportsWithheld}
        />
      )}
      {downloads.length > 0 && <ExportButtons downloads={downloads} />}
      <p className="mt-2 text-xs text-slate-500">
        Leaderboard: one row per model, type and metric with its interval. Captions: every caption of the run with its
        counts, rules, scores, reasons and key points.
      </p>
    </Card>
  );
}

/** The leaderboard's downloads (unless withheld) and each shown run's captions (unless that run's are). */
function captionDownloads(
  projectId: string,
  runIds: string,
  leaderboardWithheld: Withheld,
  [style, content]: (CaptionRunSummary | null)[],
  [styleWithheld, contentWithheld]: unknown[],
) {
  return [
    ...(runIds && !leaderboardWithheld
      ? [
          {
            label: "Leaderboard CSV",
            href: `/api/v1/projects/${projectId}/caption-leaderboard?${runIds}&format=csv`,
            filename: `caption-leaderboard-${projectId}.csv`,
            kind: "csv" as const,
          },
          {
            label: "Leaderboard JSONL",
            href: `/api/v1/projects/${projectId}/caption-leaderboard?${runIds}&format=jsonl`,
            filename: `caption-leaderboard-${projectId}.jsonl`,
            kind: "jsonl" as const,
          },
        ]
      : []),
    ...[style, content].flatMap((run, i) =>
      run && ![styleWithheld, contentWithheld][i]
        ? (["csv", "jsonl"] as const).map((format) => ({
            label: `${run.pipeline === "caption_style" ? "Style" : "Content"} captions ${format.toUpperCase()}`,
            href: `/api/v1/runs/${run.id}/captions?format=${format}`,
            filename: `captions-${run.id}.${format}`,
            kind: format,
          }))
        : [],
    ),
  ];
}

function CaptionFilters({
  style,
  content,
  runs,
  query,
  options,
  catalogue,
}: {
  style: CaptionRunSummary | null;
  content: CaptionRunSummary | null;
  catalogue: DeclarationCatalogue;
  runs: CaptionRunSummary[];
  query: z.output<typeof captionListQuerySchema>;
  options: Awaited<ReturnType<typeof captionFilterOptions>>;
}) {
  const runOptions = (pipeline: string) =>
    runs.filter((r) => r.pipeline === pipeline).map((r) => ({ value: r.id, label: runLabel(r, catalogue) }));
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="caption-filters">
      <FilterSelect
        label="Style run"
        name="styleRunId"
        defaultValue={style?.id ?? ""}
        options={runOptions("caption_style")}
      />
      <FilterSelect
        label="Content run"
        name="contentRunId"
        defaultValue={content?.id ?? ""}
        options={runOptions("caption_content")}
      />
      <FilterSelect
        label="Model"
        name="model"
        defaultValue={query.model ?? ""}
        empty="every model"
        options={options.models}
        testId="filter-model"
      />
      <FilterSelect
        label="Caption type"
        name="type"
        defaultValue={query.type ?? ""}
        empty="every type"
        options={options.types}
        testId="filter-type"
      />
      <VideoFilterSelect videos={options.videos} defaultValue={query.videoId} />
      <FilterSelect
        label="Flag"
        name="flag"
        defaultValue={query.flag ?? ""}
        empty="any"
        options={CAPTION_FLAGS.map((f) => ({ value: f, label: FLAG_LABELS[f] }))}
        testId="filter-flag"
      />
      <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Apply</button>
    </form>
  );
}

function LeaderboardCard({ overview, leaderboardWithheld }: { overview: Overview; leaderboardWithheld: Withheld }) {
  return (
    <Card title="Leaderboard">
      <p className="mb-2 text-xs text-slate-500">
        Per model × caption type (and per model over all its captions): mean style score (0–4, the score that counts),
        content coverage (key points hit / key points) and the rate of length-rule violations, each with its bootstrap
        95% interval and n (captions).
      </p>
      {leaderboardWithheld ? (
        <WithheldNotice
          message={`The leaderboard of these runs is ${withheldReason(leaderboardWithheld)}. It is computed from every caption, so it is shown once you have submitted them.`}
          withheld={leaderboardWithheld}
        />
      ) : (
        <DataTable
          testId="caption-leaderboard"
          columns={LEADERBOARD_COLUMNS}
          rows={overview.leaderboard?.rows ?? []}
          rowKey={(row) => `${row.model}:${row.captionType ?? ""}`}
          rowProps={(row) => ({
            "data-testid": "leaderboard-row",
            "data-model": row.model,
            "data-type": row.captionType ?? "all",
            className: row.captionType === null ? "bg-slate-50 font-medium" : "",
          })}
        />
      )}
    </Card>
  );
}

/** This page with the same filters and another page of the caption list. */
function captionsPageHref(projectId: string, raw: Record<string, string>, page: number) {
  const search = new URLSearchParams(
    Object.entries(raw).filter(([k, v]) => k !== "page" && typeof v === "string" && v !== "") as [string, string][],
  );
  search.set("page", String(page));
  return `/projects/${projectId}/captions?${search}`;
}
