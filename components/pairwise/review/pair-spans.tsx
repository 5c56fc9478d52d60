"use client";

/**
 * Marking *where* on either video of a pair: the span editor of every video (components/spans), opened under the
 * players for one of the two, marking under the project's own span labels. It follows the video, not the side: after
 * a swap it names the side the video is now on. A blind set is kept blind: the editor is embedded without its
 * key-frame ticks, so the video's record (its path names the generator) is never read. A honeypot's broken copy is
 * not a video of its own, so it has nothing to mark. The editor's keys act while focus is inside it (Esc gives them
 * back to the pair's keys), as on a localising queue's item.
 */
import { useState } from "react";
import { SpanWorkbench } from "@/components/spans/span-workbench";
import type { PairForReview } from "@/lib/pairwise/review/review.types";
import type { Side } from "@/lib/pairwise/verdicts";
import type { SpanLabel } from "@/lib/spans/span-labels";
import { PROJECT_SPAN_TASK } from "@/lib/spans/span-types";

/** What the page tells the screen for marking: who marks, and the project's own span labels. */
export interface PairMarking {
  currentUserId: string;
  labels: SpanLabel[];
}

type PairVideo = "a" | "b";

/** The side a pair's video is shown on now. */
function sideOf(video: PairVideo, aSide: Side): Side {
  if (video === "a") return aSide;
  return aSide === "left" ? "right" : "left";
}

/** The pair's videos that can be marked: on screen, left first. */
function markableVideos(pair: PairForReview, aSide: Side): { video: PairVideo; side: Side; videoId: string }[] {
  const candidates = (["a", "b"] as const).flatMap((video) => {
    const shown = pair[video];
    return shown.videoId && !shown.rendering ? [{ video, side: sideOf(video, aSide), videoId: shown.videoId }] : [];
  });
  return candidates.sort((x, y) => (x.side === y.side ? 0 : x.side === "left" ? -1 : 1));
}

export function PairSpans({
  projectId,
  pair,
  aSide,
  marking,
}: {
  projectId: string;
  pair: PairForReview;
  aSide: Side;
  marking: PairMarking;
}) {
  const [open, setOpen] = useState<PairVideo | null>(null);
  const videos = markableVideos(pair, aSide);
  if (videos.length === 0) return null;
  const chosen = videos.find((v) => v.video === open) ?? null;
  return (
    <section className="space-y-2 rounded border border-slate-200 p-2" data-testid="pair-spans">
      <p className="flex flex-wrap items-center gap-2 text-xs">
        <span className="text-slate-600">Mark where (optional):</span>
        {videos.map((v) => (
          <button
            key={v.video}
            type="button"
            aria-pressed={open === v.video}
            className={`rounded border px-2 ${open === v.video ? "bg-slate-200" : ""}`}
            onClick={() => setOpen((current) => (current === v.video ? null : v.video))}
          >
            {v.side === "left" ? "Left video" : "Right video"}
          </button>
        ))}
      </p>
      {chosen && marking.labels.length === 0 && (
        <p className="text-xs text-amber-800" data-testid="pair-spans-no-labels">
          This project has no span labels of its own yet: an owner adds them in the project&apos;s settings (Span
          labels), and spans are then marked under them.
        </p>
      )}
      {chosen && marking.labels.length > 0 && (
        <div data-testid="pair-span-editor" data-side={chosen.side} className="max-w-3xl">
          <p className="mb-1 text-xs text-slate-600">
            Spans on the {chosen.side} video. Click the timeline to mark ([ ] and s); Esc gives the keys back to the
            pair.
          </p>
          <SpanWorkbench
            key={chosen.videoId}
            videoId={chosen.videoId}
            projectId={projectId}
            task={PROJECT_SPAN_TASK}
            labels={marking.labels}
            currentUserId={marking.currentUserId}
            keyScope="focus"
            keyFrameTicks={false}
          />
        </div>
      )}
    </section>
  );
}
