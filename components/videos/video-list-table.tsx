"use client";

import { KeyListOverlay } from "@/components/key-list-overlay";
import { NoPrompt } from "@/components/videos/no-prompt";
import { LIST_KEYS, useVideoListKeys } from "@/components/videos/use-video-list-keys";
import { VideoSelectCheckbox } from "@/components/videos/video-selection";
import { ON_TINTED_ROW } from "@/components/class-names";
import Link from "next/link";
import type { ReactNode } from "react";
import { formatScore } from "@/lib/format/numbers";
import { isYesNoScale, type MetricDeclaration } from "@/lib/task-modules/task-declaration";
import type { SpanCounts } from "@/lib/videos/span-counts";

export interface VideoListRow {
  id: string;
  href: string;
  fileName: string;
  prompt: string | null;
  dimensions: string[];
  model: string | null;
  sampleIndex: number | null;
  status: string;
  keyFrameCount: number;
  thumbnailUrl: string | null;
  /** The run's metrics by declared id (a yes/no metric as a boolean); null when the video is not in the run. */
  scores: Record<string, number | boolean | null> | null;
  review: { reviewers: number; byMe: boolean; disagreement: boolean };
  blind?: boolean;
  /** The video's spans by who marked them; null while the caller reviews it blind (absent: not read). */
  spans?: SpanCounts | null;
}

const spanTotal = (spans: SpanCounts) => spans.people + spans.judge + spans.gold;

/** Whether SpanCountCell shows anything: a dash while blind, else a count of at least one span. */
export function hasSpanCount(spans: SpanCounts | null | undefined): boolean {
  return spans === null || (!!spans && spanTotal(spans) > 0);
}

/** A video's spans in the list: their number, with people's, judge runs' and gold ones apart in the title. */
export function SpanCountCell({ spans }: { spans: SpanCounts | null | undefined }) {
  if (spans === null)
    return <span title="You are reviewing this video in a blind queue: its spans appear after you submit.">—</span>;
  if (!spans) return null;
  const total = spanTotal(spans);
  if (total === 0) return null;
  return <span title={`${spans.people} by people, ${spans.judge} by judge runs, ${spans.gold} gold`}>{total}</span>;
}

const blindMark = (
  <span
    className="rounded bg-slate-200 px-1 text-xs"
    title="You are reviewing this video in a blind queue: the judge's values appear after you submit."
  >
    blind
  </span>
);

/** Every cell is padded on both sides, so neighbouring values never run together ("49.9yes"). */
const cell = "px-1.5 py-1 align-middle";

/** A video's value of one of the run's metrics as the list shows it: a number, a named value (red when positive), or "blind". */
export function MetricValue({
  metric,
  video,
  blindMetricId,
}: {
  metric: MetricDeclaration;
  video: VideoListRow;
  blindMetricId: string | undefined;
}) {
  if (video.blind && metric.id === blindMetricId) return blindMark;
  const value = video.scores?.[metric.id];
  if (metric.scale.kind === "numeric") return <>{typeof value === "number" ? formatScore(value) : ""}</>;
  const stored =
    typeof value === "boolean" && isYesNoScale(metric.scale)
      ? value
        ? 1
        : 0
      : typeof value === "number"
        ? value
        : null;
  const positive = stored !== null && metric.positive.op === "==" && metric.positive.value === stored;
  const label = stored === null ? "" : (metric.scale.values.find((v) => v.value === stored)?.label ?? String(stored));
  return positive ? <span className="text-red-700">{label}</span> : <>{label}</>;
}

/**
 * The video table with a keyboard row cursor: j/↓ and k/↑ move it, Enter or o opens the video,
 * ] and [ go to the next and previous page, / focuses the prompt search. Nothing fires while typing.
 */
export function VideoListTable({
  rows,
  head,
  metrics,
  verdictMetricId,
  nextHref,
  prevHref,
  searchInputId,
}: {
  rows: VideoListRow[];
  head: ReactNode;
  /** The shown run's task's metrics, one column each, in declared order. */
  metrics: readonly MetricDeclaration[];
  /** The metric that is the task's verdict: its cell says "blind" while the caller reviews the video blind. */
  verdictMetricId: string | null;
  nextHref: string | null;
  prevHref: string | null;
  searchInputId: string;
}) {
  const blindMetricId = verdictMetricId ?? metrics[metrics.length - 1]?.id;
  const {
    cursor,
    setCursor,
    listening,
    help,
    closeHelp,
    itemRefs: rowRefs,
  } = useVideoListKeys<HTMLTableRowElement>({ rows, nextHref, prevHref, searchInputId });

  return (
    <>
      <KeyListOverlay
        open={help}
        onClose={closeHelp}
        keys={LIST_KEYS}
        title="Video list keys"
        testId="video-list-keys"
      />
      {/* A table wider than the page (a task with many metrics) scrolls sideways in its own box, never the page. Names and
          prompts take two lines at most (the whole text in their title), every cell is padded, so no column runs into the next. */}
      <div className="w-full min-w-0 overflow-x-auto" data-testid="video-table-container">
        <table
          className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm"
          data-testid="video-table"
          data-keyboard={listening ? "on" : undefined}
        >
          {head}
          <tbody className="divide-y divide-slate-100">
            {rows.map((video, index) => {
              const active = index === cursor;
              return (
                <tr
                  key={video.id}
                  ref={(element) => {
                    rowRefs.current[index] = element;
                  }}
                  data-testid="video-row"
                  data-cursor={active ? "true" : undefined}
                  aria-selected={active}
                  onClick={() => setCursor(index)}
                  className={
                    active
                      ? `bg-indigo-50 outline outline-2 -outline-offset-2 outline-indigo-400 ${ON_TINTED_ROW}`
                      : undefined
                  }
                >
                  <VideoRowCells video={video} metrics={metrics} blindMetricId={blindMetricId} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The video's thumbnail (a frame), or an empty box while it has none. */
function ThumbnailCell({ thumbnailUrl }: { thumbnailUrl: VideoListRow["thumbnailUrl"] }) {
  return (
    <td className="w-20 px-2 py-1">
      {thumbnailUrl ? (
        // A frame served by the app to members only; lazy so off-screen rows cost nothing. `max-w-none`: the
        // default `max-width: 100%` let a crowded table squeeze the image to 0 px.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={thumbnailUrl}
          alt=""
          loading="lazy"
          decoding="async"
          width={64}
          height={36}
          className="h-9 w-16 max-w-none rounded bg-slate-100 object-cover"
          data-testid="video-thumbnail"
        />
      ) : (
        <span className="block h-9 w-16 rounded bg-slate-100" aria-hidden="true" />
      )}
    </td>
  );
}

/** The video's status, coloured: failed red, ready green, anything else amber. */
function StatusCell({ status }: { status: VideoListRow["status"] }) {
  return (
    <td className={`${cell} whitespace-nowrap`}>
      <span
        className={status === "failed" ? "text-red-700" : status === "ready" ? "text-emerald-700" : "text-amber-700"}
      >
        {status.replace("_", " ")}
      </span>
    </td>
  );
}

/** One video's cells: thumbnail, name, prompt, model and dimensions, sample, status, key frames, metrics, reviews (yours
 * marked ✓), flag, spans. */
function VideoRowCells({
  video,
  metrics,
  blindMetricId,
}: {
  video: VideoListRow;
  metrics: readonly MetricDeclaration[];
  blindMetricId: string | undefined;
}) {
  return (
    <>
      <ThumbnailCell thumbnailUrl={video.thumbnailUrl} />
      <td className={cell} title={video.fileName} data-testid="video-name-cell">
        {/* The widths on a block inside the cell (a cell's own min-width is not honoured everywhere): a long name
            takes 8–16rem as the table's room allows, never a narrow column and a tall row. */}
        <div className="flex min-w-[8rem] max-w-[16rem] items-start">
          <VideoSelectCheckbox id={video.id} label={video.fileName} />
          <Link
            href={video.href}
            className="line-clamp-2 wrap-anywhere text-indigo-700 underline"
            data-testid="video-link"
          >
            {video.fileName}
          </Link>
        </div>
      </td>
      <td className={`${cell} min-w-[10rem]`} title={video.prompt ?? ""} data-testid="video-prompt-cell">
        <span className="line-clamp-2 break-words">{video.prompt ?? <NoPrompt />}</span>
      </td>
      <td className={`${cell} break-words`} data-testid="video-model-cell">
        {video.model}
        {video.dimensions.length > 0 && (
          <span className="block text-xs text-slate-600">{video.dimensions.join(", ")}</span>
        )}
      </td>
      <td className={`${cell} tabular-nums`}>{video.sampleIndex}</td>
      <StatusCell status={video.status} />
      <td className={`${cell} text-right tabular-nums`}>{video.keyFrameCount || ""}</td>
      {metrics.map((metric) => (
        <td
          key={metric.id}
          className={`${cell} whitespace-nowrap ${metric.scale.kind === "numeric" ? `text-right tabular-nums ${metric.higherIsBetter ? "font-medium" : ""}` : ""}`}
          data-testid={`score-${metric.id}`}
        >
          <MetricValue metric={metric} video={video} blindMetricId={blindMetricId} />
        </td>
      ))}
      {/* Your own review is a mark beside the count, not a column of its own: the table fits 1440 px with the spans. */}
      <td className={`${cell} whitespace-nowrap text-right tabular-nums`} data-testid="review-count">
        {video.review.reviewers || ""}
        {video.review.byMe ? (
          <span className="ml-1" title="You reviewed this video" data-testid="reviewed-by-me">
            ✓
          </span>
        ) : (
          ""
        )}
      </td>
      <td className="px-1.5 text-center" data-testid="disagreement">
        {video.review.disagreement ? (
          <span
            className="rounded bg-amber-100 px-1 text-xs text-amber-900"
            title="A reviewer disagrees with the judge"
          >
            disagrees
          </span>
        ) : (
          ""
        )}
      </td>
      <td className={`${cell} text-right tabular-nums`} data-testid="span-count">
        <SpanCountCell spans={video.spans} />
      </td>
    </>
  );
}
