import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { vbench2PageChoices, vbench2PageQuerySchema } from "@/lib/tasks/vbench2/page-data";
import { VBENCH2_CATEGORIES } from "@/lib/tasks/vbench2/vbench2-dimensions";
import { visibleVbench2Results } from "@/lib/tasks/vbench2/visible-results";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { AgreementCell, Percent, QuestionList, VideoValueCell } from "../results-cells";

type Results = Awaited<ReturnType<typeof visibleVbench2Results>>;

export default async function Vbench2Page({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { projectId } = await params;
  const { actor } = await requirePageProjectAccess(projectId);
  const parsed = vbench2PageQuerySchema.safeParse(searchParamsObject(await searchParams));
  const query = parsed.success ? parsed.data : {};
  const { runs, labelSets } = await vbench2PageChoices(prisma, projectId);
  const runId = query.runId ?? runs[0]?.id;
  let problem = parsed.success ? null : "Some parameters were not understood and were ignored.";
  let results: Results | null = null;
  if (runId) {
    try {
      results = await visibleVbench2Results(prisma, actor, projectId, runId, { labelSetId: query.labelSetId ?? null });
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof ValidationError)) throw error;
      problem = error.message;
    }
  }
  // People's categories and total mean something only once someone answered a question.
  const peopleAnswered = results?.dimensions.some((d) => d.humanN > 0 || d.humanScore !== null) ?? false;
  const generators = results ? [...new Set(results.dimensions.flatMap((d) => d.videos.map((v) => v.model).filter((m): m is string => m !== null)))].sort() : [];
  const api = runId ? `/api/v1/runs/${runId}/vbench2` : null;
  const labelQuery = query.labelSetId ? `&labelSetId=${encodeURIComponent(query.labelSetId)}` : "";
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="VBench-2.0 results" />
      <p className="text-sm text-slate-600">
        The twelve VLM-judged dimensions as VBench-2.0&apos;s code scores them (each video&apos;s value by the dimension&apos;s rule, the score over the videos that are not -1), the six others from
        VBench&apos;s own results when a results label set is chosen, the five category means and the total as its cal_final_score.py computes them. People&apos;s values are recomputed from their
        answers to the questions. See{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/judge`}>
          Judge
        </Link>{" "}
        to start a run.
      </p>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {runs.length === 0 ? (
        <EmptyState title="No VBench-2.0 runs yet">Start one on the Judge page with the VBench-2.0 task, after importing a sample folder and VBench2_full_info.json.</EmptyState>
      ) : (
        <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="vbench2-choose">
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-700">Run</span>
            <select name="runId" defaultValue={runId} className="rounded-md border border-slate-300 px-2 py-1.5">
              {runs.map((run) => (
                <option key={run.id} value={run.id}>
                  {run.label} · {run.status}
                  {run.simulated ? " · simulated" : ""}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-700">VBench&apos;s own results (label set)</span>
            <select name="labelSetId" defaultValue={query.labelSetId ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5">
              <option value="">none</option>
              {labelSets.map((set) => (
                <option key={set.id} value={set.id}>
                  {set.name}
                </option>
              ))}
            </select>
          </label>
          <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Show</button>
        </form>
      )}
      {results && api && (
        <>
          <p className="flex flex-wrap gap-3 text-sm" data-testid="vbench2-exports">
            <a className="text-indigo-700 underline" href={`${api}?format=json${labelQuery}`}>
              JSON
            </a>
            {generators.map((model) => (
              <a key={model} className="text-indigo-700 underline" href={`${api}?format=eval_results&model=${encodeURIComponent(model)}`}>
                {model}_eval_results.json
              </a>
            ))}
            <Link className="text-indigo-700 underline" href={`/projects/${projectId}/vbench2/leaderboard?runId=${runId}${labelQuery}`} data-testid="vbench2-leaderboard-link">
              generator leaderboard
            </Link>
          </p>
          <Card title="All dimensions">
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" data-testid="vbench2-dimensions">
                <thead className="text-xs uppercase text-slate-500">
                  <tr>
                    <th className="px-2 py-1">dimension</th>
                    <th className="px-2 py-1">source</th>
                    <th className="px-2 py-1">judge</th>
                    <th className="px-2 py-1">videos (excluded)</th>
                    <th className="px-2 py-1">people</th>
                    <th className="px-2 py-1">VBench</th>
                    <th className="px-2 py-1">judge vs VBench</th>
                    <th className="px-2 py-1">judge vs people</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {Object.entries(VBENCH2_CATEGORIES).flatMap(([category, dimensions]) => [
                    <tr key={category} className="bg-slate-50 font-medium">
                      <td className="px-2 py-1" colSpan={2}>
                        {category}
                      </td>
                      <td className="px-2 py-1 tabular-nums" data-testid={`vbench2-category-${category}`}>
                        <Percent value={results.categories[category] ?? null} />
                      </td>
                      <td />
                      <td className="px-2 py-1 tabular-nums">
                        <Percent value={peopleAnswered ? (results.humans.categories[category] ?? null) : null} />
                      </td>
                      <td colSpan={3} />
                    </tr>,
                    ...dimensions.map((dimension) => {
                      const d = results.dimensions.find((entry) => entry.dimension === dimension);
                      return (
                        <tr key={dimension} data-testid={`vbench2-row-${dimension}`}>
                          <td className="px-2 py-1 pl-5">{dimension.replace(/_/g, " ")}</td>
                          <td className="px-2 py-1 text-slate-500">{d ? (d.source === "judge" ? "FrameJury's judge" : "VBench (imported)") : "none (counts 0)"}</td>
                          <td className="px-2 py-1 tabular-nums">
                            <Percent value={d?.score ?? null} />
                          </td>
                          <td className="px-2 py-1 tabular-nums text-slate-600">{d ? `${d.n}${d.excluded ? ` (${d.excluded})` : ""}` : "—"}</td>
                          <td className="px-2 py-1 tabular-nums">{d?.humanN ? <Percent value={d.humanScore} /> : "—"}</td>
                          <td className="px-2 py-1 tabular-nums">{d?.vbenchN ? <Percent value={d.vbenchScore} /> : "—"}</td>
                          <AgreementCell agreement={d?.judgeVsVbench ?? null} unit="videos" />
                          <AgreementCell agreement={d?.judgeVsHumans ?? null} unit="questions" />
                        </tr>
                      );
                    }),
                  ])}
                  <tr className="border-t-2 border-slate-300 font-semibold">
                    <td className="px-2 py-1" colSpan={2}>
                      Total (mean of the five categories)
                    </td>
                    <td className="px-2 py-1 tabular-nums" data-testid="vbench2-total">
                      <Percent value={results.total} />
                    </td>
                    <td />
                    <td className="px-2 py-1 tabular-nums">
                      <Percent value={peopleAnswered ? results.humans.total : null} />
                    </td>
                    <td colSpan={3} />
                  </tr>
                </tbody>
              </table>
            </div>
          </Card>
          {results.dimensions
            .filter((d) => d.source === "judge")
            .map((d) => (
              <details key={d.dimension} className="rounded-md border border-slate-200 p-3" data-testid={`vbench2-videos-${d.dimension}`}>
                <summary className="cursor-pointer text-sm font-medium">
                  {d.dimension.replace(/_/g, " ")}: {d.videos.length} video{d.videos.length === 1 ? "" : "s"}, each question with the judge&apos;s answer and the frames it saw
                </summary>
                <ul className="mt-2 flex flex-col gap-3 text-sm">
                  {d.videos.map((video) => (
                    <li key={video.videoId} className="flex flex-col gap-1">
                      <div className="flex flex-wrap items-baseline gap-2">
                        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/videos/${video.videoId}`}>
                          {video.videoPath}
                        </Link>
                        <VideoValueCell video={video} />
                        {video.deviation && <span className="text-xs text-amber-800">{video.deviation}</span>}
                      </div>
                      <QuestionList questions={video.questions} blind={video.blind} />
                    </li>
                  ))}
                </ul>
              </details>
            ))}
        </>
      )}
    </div>
  );
}
