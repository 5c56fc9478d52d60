import Link from "next/link";
import { Card } from "@/components/empty-state";
import { CreateLabelQueue } from "@/components/label-next/create-label-queue";
import type { SpanDisagreementRanking } from "@/lib/label-next/span-disagreement";

const REASON = { judge_only: "the judge marks it, no reviewer does", overlap: "reviewers' spans overlap little" };

/** The run's videos where spans disagree most (lib/label-next/span-disagreement.ts), for a localising queue. */
export function SpanDisagreementCard({
  projectId,
  runId,
  ranking,
  mode,
}: {
  projectId: string;
  runId: string;
  ranking: SpanDisagreementRanking;
  /** The queue's mode: presence first where the task declares presence, so a present label asks for a span. */
  mode: "full" | "presence";
}) {
  return (
    <Card title={`Where spans disagree (${ranking.videos.length})`}>
      <p className="mb-2 text-sm text-slate-600">
        For each label, the judge and every reviewer who localised the video are compared by the frames their spans
        cover: a video ranks by 1 − the lowest frame overlap (IoU) between two of them, or 1 where the judge marks a
        label no reviewer marks. {ranking.withSpans} video{ranking.withSpans === 1 ? "" : "s"} of the run have spans,{" "}
        {ranking.localised} localised by reviewers.
      </p>
      {ranking.videos.length === 0 ? (
        <p className="text-sm text-slate-500">No video&apos;s spans disagree.</p>
      ) : (
        <div className="flex flex-col gap-4">
          <table className="w-full text-left text-sm" data-testid="label-next-span-videos">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1">Video</th>
                <th>Disagreement</th>
                <th>Label</th>
                <th>Why</th>
                <th>Reviewers</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {ranking.videos.map((v) => (
                <tr key={v.id} data-testid="label-next-span-video">
                  <td className="py-1">
                    <Link href={`/projects/${projectId}/videos/${v.id}`} className="text-indigo-700 underline">
                      {v.relativePath}
                    </Link>
                  </td>
                  <td>{v.disagreement.toFixed(2)}</td>
                  <td>
                    {v.label}
                    {v.disputedLabels > 1 ? ` (+${v.disputedLabels - 1})` : ""}
                  </td>
                  <td>{REASON[v.reason as keyof typeof REASON] ?? ""}</td>
                  <td>{v.reviewers}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <CreateLabelQueue
            projectId={projectId}
            runId={runId}
            videoIds={ranking.videos.map((v) => v.id)}
            queue={{ scope: "scores", categories: [], mode, localize: true }}
            defaultName={`Where: ${ranking.videos.length} video${ranking.videos.length === 1 ? "" : "s"}`}
          />
        </div>
      )}
    </Card>
  );
}
