import Link from "next/link";
import { Card } from "@/components/empty-state";
import type { SpanCounts } from "@/lib/videos/span-counts";

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The project overview's spans: how many count, by people (reviewers and label sets), judge runs and the gold, each
 * linking to the video list filtered to the videos that have them.
 */
export function ProjectSpanCounts({ projectId, counts }: { projectId: string; counts: SpanCounts }) {
  const total = counts.people + counts.judge + counts.gold;
  const videos = (spans: string) => `/projects/${projectId}/videos?spans=${spans}`;
  if (total === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="span-counts">
        No spans yet: mark where something happens on a video&apos;s timeline, import a span file, or run a judge that
        says where.
      </p>
    );
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="span-counts">
      <p>
        <Link href={videos("any")} className="font-medium text-indigo-700 underline" data-testid="span-count-link">
          {counted(total, "span", "spans")}
        </Link>
        {": "}
        <Link href={videos("people")} className="text-indigo-700 underline" data-testid="span-count-link">
          {counts.people} by people
        </Link>
        {" · "}
        <Link href={videos("judge")} className="text-indigo-700 underline" data-testid="span-count-link">
          {counts.judge} by judge runs
        </Link>
        {` · ${counts.gold} gold`}
      </p>
    </div>
  );
}

/** The overview's card of spans. */
export function ProjectSpansCard({ projectId, counts }: { projectId: string; counts: SpanCounts }) {
  return (
    <Card title="Spans">
      <ProjectSpanCounts projectId={projectId} counts={counts} />
    </Card>
  );
}
