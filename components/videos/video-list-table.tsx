"use client";

import { isTypingTarget } from "@/components/is-typing-target";
import { NoPrompt } from "@/components/videos/no-prompt";
import { VideoSelectCheckbox } from "@/components/videos/video-selection";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { isYesNoScale, type MetricDeclaration } from "@/lib/tasks/task-declaration";

const LIST_KEYS: [string, string][] = [
  ["j / ↓", "next row"],
  ["k / ↑", "previous row"],
  ["Enter / o", "open the video (its page follows this list with j / k)"],
  ["] / [", "next / previous page"],
  ["/", "search prompts (Esc leaves the field)"],
  ["?", "show or hide these keys"],
];

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
}

const blindMark = (
  <span className="rounded bg-slate-200 px-1 text-xs" title="You are reviewing this video in a blind queue: the judge's values appear after you submit.">
    blind
  </span>
);

const num = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? "" : Number(value.toFixed(digits)).toString());

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
  const router = useRouter();
  const [cursor, setCursor] = useState(0);
  // Set once the shortcuts listen (after hydration), for tests and for the hint's styling.
  const [listening, setListening] = useState(false);
  const [help, setHelp] = useState(false);
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);

  useEffect(() => {
    rowRefs.current[cursor]?.scrollIntoView?.({ block: "nearest" });
  }, [cursor]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      if (isTypingTarget(event.target)) {
        if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      const last = rows.length - 1;
      switch (event.key) {
        case "j":
        case "ArrowDown":
          if (last < 0) return;
          event.preventDefault();
          setCursor((c) => Math.min(last, c + 1));
          return;
        case "k":
        case "ArrowUp":
          if (last < 0) return;
          event.preventDefault();
          setCursor((c) => Math.max(0, c - 1));
          return;
        case "Enter":
        case "o": {
          // Enter on a focused link or button is theirs.
          if (event.key === "Enter" && event.target instanceof HTMLElement && event.target.closest("a, button")) return;
          const row = rows[cursor];
          if (!row) return;
          event.preventDefault();
          router.push(row.href);
          return;
        }
        case "]":
          if (!nextHref) return;
          event.preventDefault();
          router.push(nextHref);
          return;
        case "[":
          if (!prevHref) return;
          event.preventDefault();
          router.push(prevHref);
          return;
        case "?":
          event.preventDefault();
          setHelp((shown) => !shown);
          return;
        case "/": {
          const input = document.getElementById(searchInputId);
          if (!(input instanceof HTMLInputElement)) return;
          event.preventDefault();
          input.focus();
          input.select();
          return;
        }
      }
    }
    document.addEventListener("keydown", onKeyDown);
    setListening(true);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [rows, cursor, nextHref, prevHref, router, searchInputId]);

  return (
    <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm" data-testid="video-table" data-keyboard={listening ? "on" : undefined}>
      {help && (
        <caption className="caption-top pb-2 text-left text-xs" data-testid="video-list-keys">
          <dl className="grid grid-cols-[6rem_1fr] gap-x-3 rounded-md border border-slate-200 bg-white p-2">
            {LIST_KEYS.map(([key, what]) => (
              <div key={key} className="contents">
                <dt className="font-mono">{key}</dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </caption>
      )}
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
              className={active ? "bg-indigo-50 outline outline-2 -outline-offset-2 outline-indigo-400" : undefined}
            >
              <td className="px-2 py-1">
                {video.thumbnailUrl ? (
                  // A frame served by the app to members only; lazy so off-screen rows cost nothing.
                  <img src={video.thumbnailUrl} alt="" loading="lazy" decoding="async" width={64} height={36} className="h-9 w-16 rounded bg-slate-100 object-cover" data-testid="video-thumbnail" />
                ) : (
                  <span className="block h-9 w-16 rounded bg-slate-100" aria-hidden="true" />
                )}
              </td>
              <td className="max-w-56 truncate px-2 py-1">
                <VideoSelectCheckbox id={video.id} label={video.fileName} />
                <Link href={video.href} className="text-indigo-700 underline" data-testid="video-link">
                  {video.fileName}
                </Link>
              </td>
              <td className="max-w-md truncate" title={video.prompt ?? ""} data-testid="video-prompt-cell">
                {video.prompt ?? <NoPrompt />}
              </td>
              <td>{video.dimensions.join(", ")}</td>
              <td>{video.model}</td>
              <td>{video.sampleIndex}</td>
              <td>
                <span className={video.status === "failed" ? "text-red-700" : video.status === "ready" ? "text-emerald-700" : "text-amber-700"}>{video.status.replace("_", " ")}</span>
              </td>
              <td className="text-right tabular-nums">{video.keyFrameCount || ""}</td>
              {metrics.map((metric) => {
                const value = video.scores?.[metric.id];
                if (metric.scale.kind === "numeric") {
                  return (
                    <td key={metric.id} className={`text-right tabular-nums ${metric.higherIsBetter ? "font-medium" : ""}`} data-testid={`score-${metric.id}`}>
                      {video.blind && metric.id === blindMetricId ? blindMark : typeof value === "number" ? num(value) : ""}
                    </td>
                  );
                }
                const stored = typeof value === "boolean" && isYesNoScale(metric.scale) ? (value ? 1 : 0) : typeof value === "number" ? value : null;
                const positive = stored !== null && metric.positive.op === "==" && metric.positive.value === stored;
                const label = stored === null ? "" : (metric.scale.values.find((v) => v.value === stored)?.label ?? String(stored));
                return (
                  <td key={metric.id} data-testid={`score-${metric.id}`}>
                    {video.blind && metric.id === blindMetricId ? blindMark : positive ? <span className="text-red-700">{label}</span> : label}
                  </td>
                );
              })}
              <td className="text-right tabular-nums" data-testid="review-count">{video.review.reviewers || ""}</td>
              <td className="text-center" data-testid="reviewed-by-me">{video.review.byMe ? <span title="You reviewed this video">✓</span> : ""}</td>
              <td className="px-2 text-center" data-testid="disagreement">
                {video.review.disagreement ? (
                  <span className="rounded bg-amber-100 px-1 text-xs text-amber-900" title="A reviewer disagrees with the judge">
                    disagrees
                  </span>
                ) : (
                  ""
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
