import Link from "next/link";
import type { StripFrame, VideoShow, VideoSlice } from "@/lib/tasks/vbench2/page-data";
import { isDisagreeing, isExcluded } from "@/lib/tasks/vbench2/page-data";
import { QuestionList, VideoValueCell } from "./results-cells";

const SHOWS: { show: VideoShow; label: string }[] = [
  { show: "all", label: "all" },
  { show: "excluded", label: "excluded" },
  { show: "disagreeing", label: "disagreeing" },
];

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * One judged dimension's videos on the results page, collapsed: the dimension opens to a page of its videos (all,
 * or only those the judge excluded or where it disagrees with people or VBench), each video opens to its questions
 * with the frames beside each. `href` is the page's link for another filter or page of this dimension.
 */
export function DimensionVideos({
  projectId,
  dimension,
  slice,
  show,
  open,
  strips,
  href,
}: {
  projectId: string;
  dimension: string;
  slice: VideoSlice;
  show: VideoShow;
  /** The dimension the query named: its list starts open. */
  open: boolean;
  strips: ReadonlyMap<string, readonly StripFrame[]>;
  href: (change: { show: VideoShow; page: number }) => string;
}) {
  const { counts, page, pages, matching, first } = slice;
  return (
    <details
      id={`vbench2-videos-${dimension}`}
      open={open}
      className="rounded-md border border-slate-200 p-3"
      data-testid={`vbench2-videos-${dimension}`}
    >
      <summary className="cursor-pointer text-sm font-medium">
        {dimension.replace(/_/g, " ")}: {plural(counts.all, "video")}
        <span className="font-normal text-slate-500">
          {" "}
          ({counts.excluded} excluded, {counts.disagreeing} disagreeing)
        </span>
      </summary>
      <nav className="mt-2 flex flex-wrap items-center gap-3 text-xs" aria-label={`${dimension} videos`}>
        <span className="text-slate-500">Show</span>
        {SHOWS.map((s) =>
          s.show === show ? (
            <strong key={s.show} aria-current="true">
              {s.label} ({counts[s.show]})
            </strong>
          ) : (
            <Link key={s.show} className="text-indigo-700 underline" href={href({ show: s.show, page: 1 })}>
              {s.label} ({counts[s.show]})
            </Link>
          ),
        )}
        <span className="ml-auto text-slate-500" data-testid="vbench2-videos-range">
          {matching === 0 ? "no video" : `videos ${first + 1}–${first + slice.videos.length} of ${matching}`}
        </span>
        {page > 1 && (
          <Link className="text-indigo-700 underline" href={href({ show, page: page - 1 })} rel="prev">
            previous
          </Link>
        )}
        {page < pages && (
          <Link className="text-indigo-700 underline" href={href({ show, page: page + 1 })} rel="next">
            next
          </Link>
        )}
      </nav>
      <ul className="mt-2 flex flex-col gap-1 text-sm">
        {slice.videos.map((video) => (
          <li key={video.videoId}>
            <details className="rounded border border-slate-100 px-2 py-1" data-testid="vbench2-video">
              <summary className="flex cursor-pointer flex-wrap items-baseline gap-2">
                <span className="font-mono text-xs">{video.videoPath}</span>
                <span className="rounded bg-slate-100 px-1 text-xs text-slate-700" title="generator">
                  {video.model ?? "no generator"}
                </span>
                <VideoValueCell video={video} />
                {isExcluded(video) && (
                  <span className="rounded bg-amber-100 px-1 text-xs text-amber-800">excluded</span>
                )}
                {isDisagreeing(video) && (
                  <span className="rounded bg-rose-100 px-1 text-xs text-rose-800">disagreeing</span>
                )}
              </summary>
              <div className="mt-1 flex flex-col gap-1">
                <Link
                  className="text-xs text-indigo-700 underline"
                  href={`/projects/${projectId}/videos/${video.videoId}`}
                >
                  the video
                </Link>
                {video.deviation && <span className="text-xs text-amber-800">{video.deviation}</span>}
                <QuestionList questions={video.questions} blind={video.blind} strip={strips.get(video.videoId) ?? []} />
              </div>
            </details>
          </li>
        ))}
      </ul>
    </details>
  );
}
