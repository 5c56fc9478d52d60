"use client";

import { useEffect, useRef } from "react";
import type { ViewerFrame } from "./viewer-frame";

/**
 * A frame at full size in a modal dialog (the native `<dialog>`: the page behind is inert, so focus stays
 * inside; Esc closes): ← / → go to the previous / next frame of the strip, and the frames the judge saw for
 * the focused score are listed below, each a click away.
 */
export function FrameLightbox({
  frames,
  index,
  onIndex,
  onClose,
  judgeFrames,
  judgeLabel,
  describe,
}: {
  /** The strip's frames in its order. */
  frames: readonly ViewerFrame[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** The frames the judge saw for the focused score (empty when none is focused). */
  judgeFrames: readonly ViewerFrame[];
  judgeLabel: string | null;
  /** "key frame 2 · cluster of 3", for the caption. */
  describe: (frame: ViewerFrame) => string;
}) {
  const dialog = useModalDialog();
  const frame = frames[index];

  if (!frame) return null;
  const go = (by: number) => onIndex(Math.min(Math.max(index + by, 0), frames.length - 1));
  const seenByJudge = judgeFrames.some((f) => f.id === frame.id);
  return (
    <dialog
      ref={dialog}
      aria-label={`Frame at ${frame.timestampS.toFixed(2)} s`}
      className="m-auto max-h-[95vh] w-[min(96vw,80rem)] max-w-none rounded-lg bg-white p-0 text-slate-800 shadow-2xl backdrop:bg-black/70"
      data-testid="frame-lightbox"
      data-frame-index={frame.index}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        // The screen's own keys (the review screen's ← / →, the video list's j / k) are not for the page behind.
        event.stopPropagation();
        if (event.key === "ArrowLeft") {
          event.preventDefault();
          go(-1);
        } else if (event.key === "ArrowRight") {
          event.preventDefault();
          go(1);
        }
      }}
    >
      <div className="flex flex-col gap-2 p-3">
        <LightboxHeader
          caption={`${describe(frame)} · ${frame.timestampS.toFixed(3)} s · frame ${index + 1} of ${frames.length}`}
          seenByJudge={judgeFrames.length > 0 ? seenByJudge : null}
          onClose={onClose}
        />
        <div className="flex items-center gap-2">
          <button
            type="button"
            onClick={() => go(-1)}
            disabled={index === 0}
            className="rounded border border-slate-300 px-2 py-6 disabled:opacity-30"
            aria-label="Previous frame"
          >
            ‹
          </button>
          <div className="flex min-w-0 flex-1 justify-center bg-slate-900">
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img
              src={frame.url}
              alt={`${describe(frame)} at ${frame.timestampS.toFixed(2)} s, full size`}
              className="max-h-[70vh] min-h-[40vh] max-w-full object-contain"
              data-testid="lightbox-image"
            />
          </div>
          <button
            type="button"
            onClick={() => go(1)}
            disabled={index === frames.length - 1}
            className="rounded border border-slate-300 px-2 py-6 disabled:opacity-30"
            aria-label="Next frame"
          >
            ›
          </button>
        </div>
        {judgeFrames.length > 0 && (
          <JudgeFramesSection
            frames={frames}
            judgeFrames={judgeFrames}
            judgeLabel={judgeLabel}
            shownId={frame.id}
            onIndex={onIndex}
          />
        )}
      </div>
    </dialog>
  );
}

/** A ref to a `<dialog>` shown modal while mounted (the page behind inert) and closed on unmount. */
function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
    };
  }, []);
  return dialog;
}

/** The lightbox's top line: the frame's caption, whether the judge saw it (null: no score focused), the keys, close. */
function LightboxHeader({
  caption,
  seenByJudge,
  onClose,
}: {
  caption: string;
  seenByJudge: boolean | null;
  onClose: () => void;
}) {
  return (
    <div className="flex items-center gap-3 text-sm">
      <span className="font-medium" data-testid="lightbox-caption">
        {caption}
      </span>
      {seenByJudge !== null && (
        <span
          className={`rounded px-1.5 text-xs ${seenByJudge ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-600"}`}
          data-testid="lightbox-seen"
        >
          {seenByJudge ? "the judge saw this frame" : "not seen by the judge for this score"}
        </span>
      )}
      <span className="ml-auto text-xs text-slate-500">← / → previous / next · Esc closes</span>
      <button
        type="button"
        onClick={onClose}
        className="rounded px-2 text-lg leading-none text-slate-600 hover:bg-slate-100"
        aria-label="Close"
      >
        ×
      </button>
    </div>
  );
}

/** The frames the judge saw for the focused score, each a click away; the one shown is outlined. */
function JudgeFramesSection({
  frames,
  judgeFrames,
  judgeLabel,
  shownId,
  onIndex,
}: {
  frames: readonly ViewerFrame[];
  judgeFrames: readonly ViewerFrame[];
  judgeLabel: string | null;
  shownId: string;
  onIndex: (index: number) => void;
}) {
  return (
    <section aria-label="Frames the judge saw" className="flex flex-col gap-1" data-testid="lightbox-judge-frames">
      <p className="text-xs text-amber-800">
        Frames the judge saw for the focused score
        {judgeLabel ? (
          <>
            : <b>{judgeLabel}</b>
          </>
        ) : null}
      </p>
      <div className="flex flex-wrap gap-1">
        {judgeFrames.map((seen) => {
          const at = frames.findIndex((f) => f.id === seen.id);
          return (
            <button
              key={seen.id}
              type="button"
              onClick={() => at >= 0 && onIndex(at)}
              className={`rounded border-2 ${seen.id === shownId ? "border-amber-500" : "border-transparent"}`}
              aria-label={`Show the frame at ${seen.timestampS.toFixed(2)} s`}
              data-testid="lightbox-judge-frame"
            >
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={seen.url} alt="" className="h-14 max-w-none rounded" />
            </button>
          );
        })}
      </div>
    </section>
  );
}
