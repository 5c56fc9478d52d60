import Link from "next/link";
import type { runOverview } from "@/lib/judge/runs/run-overview";
import { formatValue, type MetricDeclaration } from "@/lib/task-modules/task-declaration";
import { summaryMetricValues } from "@/lib/task-modules/task-display";

type Overview = Awaited<ReturnType<typeof runOverview>>;

/** Numbers as every score reads (lib/format/numbers formatScore); named values in words. */
const fmt = (metric: MetricDeclaration, v: number | null) => formatValue(metric, v);

/**
 * The run page's table: each video with its generator (two generators' videos of one prompt share a file name), its
 * status and a column per metric the run's videos have, under headers that wrap rather than run together.
 */
export function RunVideosTable({
  projectId,
  runId,
  metrics,
  videos,
}: {
  projectId: string;
  runId: string;
  metrics: Overview["metrics"];
  videos: Overview["videos"];
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm" data-testid="run-videos">
        <thead className="text-xs text-slate-500">
          <tr className="align-bottom">
            <th className="px-3 py-2">Video</th>
            <th className="px-2 py-2">Generator</th>
            <th className="px-2 py-2">Status</th>
            {metrics.map((m) => (
              <th
                key={m.id}
                className="min-w-16 max-w-28 px-2 py-2 font-medium leading-tight"
                title={`${m.definition} ${m.aggregation}`}
                data-testid="run-metric-header"
              >
                {m.label}
              </th>
            ))}
            <th className="px-2 py-2" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {videos.map((rv) => {
            const summary = rv.summary;
            const values = summaryMetricValues({ metrics }, summary);
            return (
              <tr key={rv.videoId} data-testid="run-video">
                <td className="max-w-xs truncate px-3 py-2" title={rv.video.prompt ?? ""}>
                  <Link href={`/projects/${projectId}/videos/${rv.videoId}`} className="text-indigo-700 underline">
                    {rv.video.fileName}
                  </Link>
                </td>
                <td className="px-2 py-2 text-slate-700" data-testid="run-video-generator">
                  {rv.video.model ?? <span className="text-slate-400">—</span>}
                </td>
                <td className="px-2 py-2">
                  {rv.status}
                  {rv.blind && (
                    <span
                      className="ml-1 rounded bg-slate-800 px-1 text-xs text-white"
                      data-testid="run-video-blind"
                      title="You are reviewing this video in a blind queue: shown once you submit"
                    >
                      blind
                    </span>
                  )}
                </td>
                {metrics.map((m, i) => (
                  <td
                    key={m.id}
                    className={`px-2 py-2 tabular-nums${m.reviewed && m.scale.kind === "numeric" ? " font-medium" : ""}`}
                  >
                    {fmt(m, values[m.id] ?? null)}
                    {i === metrics.length - 1 && summary?.complete === false && (
                      <span className="ml-1 text-xs text-amber-700">(incomplete)</span>
                    )}
                  </td>
                ))}
                <td className="px-2 py-2">
                  <Link
                    href={`/projects/${projectId}/runs/${runId}/videos/${rv.videoId}`}
                    className="text-xs text-indigo-700 underline"
                  >
                    calls
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
