import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { compareSamples, type CompareSample } from "@/lib/videos/compare-samples";
import { compareQuerySchema } from "@/lib/videos/compare-samples.validation";
import { formatScore } from "@/lib/format/numbers";

const fmt = formatScore;

/** Side by side: every sample of one prompt, generator models as rows and sample indexes as columns. */
export default async function ComparePage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { access } = await requirePageProjectAccess(projectId);
  const raw = Object.fromEntries(
    Object.entries(await searchParams)
      .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])
      .filter(([, v]) => v !== undefined),
  );
  const parsed = compareQuerySchema.safeParse(raw);
  if (!parsed.success) {
    return (
      <EmptyState title="Nothing to compare">
        Open a video and follow <i>Compare samples</i>, or{" "}
        <Link href={`/projects/${projectId}/videos`} className="text-indigo-700 underline">
          pick a video
        </Link>
        .
      </EmptyState>
    );
  }
  const query = parsed.data;
  const result = await compareSamples(prisma, access, query).catch((error: unknown) => {
    if (isAppErrorCode(error, "not_found")) notFound();
    throw error;
  });
  const base = new URLSearchParams(query.videoId ? { videoId: query.videoId } : { prompt: query.prompt ?? "" });
  const href = (model: string | null | undefined) => {
    const next = new URLSearchParams(base);
    if (model !== undefined) next.set("model", model ?? "");
    return `/projects/${projectId}/compare?${next.toString()}`;
  };
  const restricted = result.restrictedTo !== undefined;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Side by side</h1>
        <span className="text-sm text-slate-500" data-testid="compare-count">
          {result.samples.length} of {result.totalSamples} samples
        </span>
        {result.focusVideoId && (
          <Link
            href={`/projects/${projectId}/videos/${result.focusVideoId}`}
            className="ml-auto text-sm text-indigo-700 underline"
          >
            back to the video
          </Link>
        )}
      </div>
      <p className="rounded-md bg-slate-50 p-3 text-sm" data-testid="compare-prompt">
        <span className="text-slate-500">Prompt: </span>
        {result.prompt ?? "(this video has no prompt)"}
      </p>
      <nav className="flex flex-wrap items-center gap-2 text-sm" aria-label="Which samples">
        <Link
          href={href(undefined)}
          className={`rounded border px-2 py-1 ${!restricted ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300"}`}
          aria-current={!restricted ? "page" : undefined}
        >
          This prompt across models ({result.totalSamples})
        </Link>
        {result.models.map((model) => (
          <Link
            key={model ?? ""}
            href={href(model)}
            className={`rounded border px-2 py-1 ${restricted && result.restrictedTo === model ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300"}`}
            aria-current={restricted && result.restrictedTo === model ? "page" : undefined}
          >
            All samples of this prompt: {modelName(model)}
            {model === result.focusModel && result.focusVideoId ? " (this video's model)" : ""}
          </Link>
        ))}
      </nav>
      {result.rows.length === 0 ? (
        <EmptyState title="No samples of this model" />
      ) : (
        <CompareGrid projectId={projectId} result={result} />
      )}
    </div>
  );
}

/** Generator models as rows, sample indexes as columns (and the samples with no index in a last column). */
function CompareGrid({ projectId, result }: { projectId: string; result: Awaited<ReturnType<typeof compareSamples>> }) {
  const hasUnindexed = result.rows.some((row) => row.unindexed.length > 0);
  return (
    <div className="overflow-x-auto">
      <table className="border-separate border-spacing-2" data-testid="compare-grid">
        <thead>
          <tr>
            <th className="text-left text-xs text-slate-500">model</th>
            {result.sampleIndexes.map((index) => (
              <th key={index} className="text-xs font-normal text-slate-500">
                sample {index}
              </th>
            ))}
            {hasUnindexed && <th className="text-xs font-normal text-slate-500">no sample index</th>}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row) => (
            <tr key={row.model ?? ""} data-testid="compare-row" data-model={modelName(row.model)}>
              <th className="align-top text-left text-sm font-medium" scope="row">
                {modelName(row.model)}
                <span className="block text-xs font-normal text-slate-500">
                  {row.count} sample{row.count === 1 ? "" : "s"}
                </span>
              </th>
              {row.cells.map((cell, i) => (
                <td key={i} className="align-top">
                  {cell.length === 0 ? (
                    <span className="text-xs text-slate-500">missing</span>
                  ) : (
                    cell.map((sample) => (
                      <Tile
                        key={sample.id}
                        projectId={projectId}
                        sample={sample}
                        focus={sample.id === result.focusVideoId}
                      />
                    ))
                  )}
                </td>
              ))}
              {hasUnindexed && (
                <td className="align-top">
                  {row.unindexed.map((sample) => (
                    <Tile
                      key={sample.id}
                      projectId={projectId}
                      sample={sample}
                      focus={sample.id === result.focusVideoId}
                    />
                  ))}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const modelName = (model: string | null) => model ?? "unknown model";

function Tile({ projectId, sample, focus }: { projectId: string; sample: CompareSample; focus: boolean }) {
  const verdict = (v: boolean | number | null) => (v === null ? "—" : v === true || v === 1 ? "yes" : "no");
  return (
    <div
      className={`flex w-56 flex-col gap-1 rounded-md border bg-white p-2 text-xs ${focus ? "border-indigo-500 ring-2 ring-indigo-200" : "border-slate-200"}`}
      data-testid="sample-tile"
      data-video-id={sample.id}
      data-sample-index={sample.sampleIndex ?? ""}
    >
      {/* preload="none" with the first key frame as poster: twenty tiles download nothing until played. */}
      <video
        src={sample.url}
        poster={sample.posterUrl ?? undefined}
        preload="none"
        controls
        className="aspect-video w-full rounded bg-black"
        data-testid="sample-player"
      />
      <div className="flex items-baseline gap-1">
        <Link
          href={`/projects/${projectId}/videos/${sample.id}`}
          className="truncate text-indigo-700 underline"
          title={sample.fileName}
        >
          {sample.sampleIndex === null ? sample.fileName : `sample ${sample.sampleIndex}`}
        </Link>
        {focus && <span className="rounded bg-indigo-100 px-1 text-indigo-800">this video</span>}
      </div>
      <p data-testid="tile-judge">
        {sample.blind ? (
          <span className="text-slate-500" data-testid="tile-blind">
            Judge: hidden while you review this video in a blind queue
          </span>
        ) : sample.judge ? (
          <>
            Judge: overall <b>{fmt(sample.judge.overall)}</b> · {sample.judge.verdictLabel ?? "verdict"}{" "}
            <b>{verdict(sample.judge.verdict)}</b>
            {sample.judge.status !== "done" && <span className="text-amber-700"> ({sample.judge.status})</span>}
          </>
        ) : (
          <span className="text-slate-500">not judged yet</span>
        )}
      </p>
      {sample.reviewers.count > 0 && (
        <p data-testid="tile-consensus">
          Reviewers&apos; consensus ({sample.reviewers.count}):{" "}
          <b>{sample.reviewers.verdict === null ? "no majority (tie)" : verdict(sample.reviewers.verdict)}</b>
        </p>
      )}
    </div>
  );
}
