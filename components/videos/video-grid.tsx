"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { apiFetch } from "@/lib/api-client";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { NoPrompt } from "@/components/videos/no-prompt";
import { LIST_KEYS, useVideoListKeys } from "@/components/videos/use-video-list-keys";
import { hasSpanCount, MetricValue, SpanCountCell, type VideoListRow } from "@/components/videos/video-list-table";
import type { MetricDeclaration } from "@/lib/task-modules/task-declaration";

interface DetailFrames {
  frameSets: {
    id: string;
    frames: { id: string; index: number; timestampS: number; isKeyFrame: boolean; url: string }[];
  }[];
}

/**
 * The video list as a grid of thumbnails (the table's filter, order, page and keys): each card shows its
 * first key frame, name, prompt and the run's metrics; hovering or focusing a card shows its key frame strip
 * (read from the video API on first hover, then cached).
 */
export function VideoGrid({
  rows,
  metrics,
  verdictMetricId,
  nextHref,
  prevHref,
  searchInputId,
}: {
  rows: VideoListRow[];
  metrics: readonly MetricDeclaration[];
  verdictMetricId: string | null;
  nextHref: string | null;
  prevHref: string | null;
  searchInputId: string;
}) {
  const blindMetricId = verdictMetricId ?? metrics[metrics.length - 1]?.id;
  const { cursor, setCursor, listening, help, closeHelp, itemRefs } = useVideoListKeys<HTMLLIElement>({
    rows,
    nextHref,
    prevHref,
    searchInputId,
  });
  return (
    <>
      <KeyListOverlay
        open={help}
        onClose={closeHelp}
        keys={LIST_KEYS}
        title="Video list keys"
        testId="video-list-keys"
      />
      <ul
        className="grid grid-cols-[repeat(auto-fill,minmax(14rem,1fr))] gap-3"
        data-testid="video-grid"
        data-keyboard={listening ? "on" : undefined}
      >
        {rows.map((video, index) => (
          <li
            key={video.id}
            ref={(element) => {
              itemRefs.current[index] = element;
            }}
            onClick={() => setCursor(index)}
            data-testid="video-card"
            data-cursor={index === cursor ? "true" : undefined}
            aria-current={index === cursor ? "true" : undefined}
            className={`min-w-0 ${index === cursor ? "rounded-lg outline outline-2 outline-offset-1 outline-indigo-400" : ""}`}
          >
            <VideoCard video={video} metrics={metrics} blindMetricId={blindMetricId} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** A card's facts: the task's metrics, the spans (as the table's column), the reviewers and a disagreement flag. */
function VideoCardFacts({
  video,
  metrics,
  blindMetricId,
}: {
  video: VideoListRow;
  metrics: readonly MetricDeclaration[];
  blindMetricId: string | undefined;
}) {
  return (
    <dl className="mt-auto flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
      {metrics.map((metric) => (
        <div key={metric.id} className="flex gap-1">
          <dt className="text-slate-500">{metric.label}</dt>
          <dd className="font-medium tabular-nums" data-testid={`score-${metric.id}`}>
            <MetricValue metric={metric} video={video} blindMetricId={blindMetricId} />
          </dd>
        </div>
      ))}
      {/* As the table's Spans column: a count with who marked them in its title, a dash while blind. */}
      {hasSpanCount(video.spans) && (
        <div className="flex gap-1">
          <dt className="text-slate-500">spans</dt>
          <dd className="tabular-nums" data-testid="grid-span-count">
            <SpanCountCell spans={video.spans} />
          </dd>
        </div>
      )}
      {video.review.reviewers > 0 && (
        <div className="flex gap-1">
          <dt className="text-slate-500">reviewers</dt>
          <dd className="tabular-nums">{video.review.reviewers}</dd>
        </div>
      )}
      {video.review.disagreement && (
        <div>
          <dt className="sr-only">flag</dt>
          <dd className="rounded bg-amber-100 px-1 text-amber-900">disagrees</dd>
        </div>
      )}
    </dl>
  );
}

/** One video's card: its thumbnail, name, prompt and facts; hovered, its key frames. */
function VideoCard({
  video,
  metrics,
  blindMetricId,
}: {
  video: VideoListRow;
  metrics: readonly MetricDeclaration[];
  blindMetricId: string | undefined;
}) {
  const [hovered, setHovered] = useState(false);
  const detail = useQuery({
    queryKey: ["video-key-frames", video.id],
    queryFn: () => apiFetch<DetailFrames>(`/api/v1/videos/${encodeURIComponent(video.id)}`),
    enabled: hovered && video.keyFrameCount > 0,
    staleTime: 5 * 60_000,
  });
  const keyFrames = (detail.data?.frameSets.at(-1)?.frames ?? []).filter((frame) => frame.isKeyFrame);
  return (
    <div
      className="relative flex h-full flex-col gap-1.5 rounded-lg border border-slate-200 bg-white p-2 text-sm"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={() => setHovered(false)}
    >
      <Link href={video.href} className="block" tabIndex={-1} aria-hidden="true">
        {video.thumbnailUrl ? (
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={video.thumbnailUrl}
            alt=""
            loading="lazy"
            decoding="async"
            className="aspect-video w-full max-w-none rounded bg-slate-100 object-cover"
            data-testid="video-thumbnail"
          />
        ) : (
          <span className="block aspect-video w-full rounded bg-slate-100" />
        )}
      </Link>
      <Link href={video.href} className="wrap-anywhere font-medium text-indigo-700 underline" data-testid="video-link">
        {video.fileName}
      </Link>
      <p
        className="line-clamp-2 break-words text-xs text-slate-600"
        title={video.prompt ?? ""}
        data-testid="video-prompt-cell"
      >
        {video.prompt ?? <NoPrompt />}
      </p>
      <VideoCardFacts video={video} metrics={metrics} blindMetricId={blindMetricId} />
      {hovered && video.keyFrameCount > 0 && (
        <div
          className="absolute inset-x-0 top-full z-20 -mt-1 rounded-b-lg border border-slate-300 bg-white p-2 shadow-lg"
          data-testid="grid-key-frames"
        >
          {detail.isPending ? (
            <p className="text-xs text-slate-500">Loading key frames…</p>
          ) : detail.error ? (
            <p className="text-xs text-red-700">{detail.error.message}</p>
          ) : (
            <div className="flex gap-1 overflow-x-auto">
              {keyFrames.map((frame) => (
                // eslint-disable-next-line @next/next/no-img-element
                <img
                  key={frame.id}
                  src={frame.url}
                  alt={`key frame at ${frame.timestampS.toFixed(2)} s`}
                  className="h-12 max-w-none rounded"
                  data-testid="grid-key-frame"
                />
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
