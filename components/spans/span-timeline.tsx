"use client";

/**
 * The timeline under the player: a ruler (drag it to scrub), the frame set's key frames and clusters as ticks, the
 * judge's spans on their own track, then one track per label with others' spans dimmed and one's own editable; a
 * playhead across them. Its axis is frames (timeline-math.ts); zoom with the buttons, `+`/`-` or Ctrl+wheel (about
 * the pointer), pan with the wheel sideways or Shift+wheel. Only spans in view are drawn, and the playhead moves in the
 * DOM from the player's frame (no React render per frame of playback); the view jumps a page when the playhead
 * leaves it.
 *
 * Stable test ids (e2e and bench:timeline): `span-timeline` (the whole timeline; `data-frame-count`),
 * `span-track-<label id>` and `span-track-judge-<label id>` (the judge's lane of a label), `span-<id>` (a span; `data-start`, `data-end`, `data-kind`
 * own|other|judge, `data-status`, `data-selected`; a span not yet saved is `span-new:<n>`), `span-edge-start` /
 * `span-edge-end` (own spans' edge handles, inside the span), `box-keyframe` (a box keyframe mark on a span),
 * `playhead` (`data-frame`), `timeline-ruler`, `frame-ticks`, `zoom-in`, `zoom-out`, `zoom-fit`; on the player:
 * `player`, `frame-index` (the presented frame; `data-frame`), `frame-time`, `box-overlay` (`data-active`), `box`.
 */
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { type FrameTimes, frameStartS } from "@/lib/frames/frame-times";
import type { Playhead } from "./playhead";
import { SpanTrack, type TimelineSpan, type TrackGeometry } from "./span-track";
import {
  clampView,
  frameToX,
  fullView,
  rulerTicks,
  type TimelineView,
  visibleRange,
  xToFrame,
  ZOOM_STEP,
  zoomAbout,
} from "./timeline-math";

export interface Track {
  id: string;
  /** The lane's name (a label's code). */
  title: string;
  /** What the name stands for (the label's full name). */
  tooltip?: string;
  spans: TimelineSpan[];
  /** The label a drag on its empty part marks (null: none, e.g. the judge's track or read-only). */
  editableLabel: string | null;
}

export interface FrameTicks {
  keyFrames: number[];
  /** Each cluster's frames as a stretch (first to last member). */
  clusters: { from: number; to: number }[];
}

/** The track area's width in pixels, kept current as the page resizes. */
function useWidth(node: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = node.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [node]);
  return width;
}

/** The playhead line, moved in the DOM; the view pages along when the playhead leaves it. */
function usePlayheadLine(
  line: React.RefObject<HTMLDivElement | null>,
  playhead: Playhead,
  view: TimelineView,
  width: number,
  frameCount: number,
  setView: Dispatch<SetStateAction<TimelineView>>,
) {
  useEffect(() => {
    const place = (frame: number) => {
      const node = line.current;
      if (!node) return;
      node.dataset.frame = String(frame);
      const { from, to } = visibleRange(view, frameCount);
      if ((frame < from || frame > to) && view.visible < frameCount) {
        setView(clampView({ first: frame - view.visible * 0.1, visible: view.visible }, frameCount));
        return;
      }
      node.style.transform = `translateX(${frameToX(view, width, frame + 0.5)}px)`;
    };
    place(playhead.frame);
    return playhead.subscribe(place);
  }, [line, playhead, view, width, frameCount, setView]);
}

/** Ctrl+wheel zooms about the pointer; a sideways wheel (or Shift+wheel) pans. Not passive: it stops the page zoom. */
function useWheelZoom(
  node: React.RefObject<HTMLDivElement | null>,
  width: number,
  frameCount: number,
  setView: Dispatch<SetStateAction<TimelineView>>,
) {
  useEffect(() => {
    const element = node.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      const x = event.clientX - element.getBoundingClientRect().left;
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        const factor = event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
        setView((v) => zoomAbout(v, factor, v.first + (x / (width || 1)) * v.visible, frameCount));
      } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        const delta = event.shiftKey ? event.deltaY : event.deltaX;
        setView((v) =>
          clampView({ first: v.first + (delta / (width || 1)) * v.visible, visible: v.visible }, frameCount),
        );
      }
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, [node, width, frameCount, setView]);
}

export function SpanTimeline({
  times,
  view,
  setView,
  playhead,
  tracks,
  ticks,
  selected,
  inOut,
  onSelect,
  onChange,
  onCreate,
  onSeek,
}: {
  times: FrameTimes;
  view: TimelineView;
  setView: Dispatch<SetStateAction<TimelineView>>;
  playhead: Playhead;
  tracks: Track[];
  ticks: FrameTicks;
  selected: string | null;
  inOut: { inFrame: number | null; outFrame: number | null };
  onSelect: (key: string | null) => void;
  onChange: (key: string, frames: { startFrame: number; endFrame: number }) => void;
  onCreate: (label: string, frames: { startFrame: number; endFrame: number }) => void;
  onSeek: (frame: number) => void;
}) {
  const frameCount = times.timesS.length;
  const area = useRef<HTMLDivElement>(null);
  const ruler = useRef<HTMLDivElement>(null);
  const line = useRef<HTMLDivElement>(null);
  const width = useWidth(ruler);
  const geometry: TrackGeometry = { view, width, frameCount };
  const scrubbing = useRef(false);
  usePlayheadLine(line, playhead, view, width, frameCount, setView);
  useWheelZoom(area, width, frameCount, setView);

  const scrubTo = (clientX: number) => {
    const left = ruler.current?.getBoundingClientRect().left ?? 0;
    onSeek(xToFrame(view, width, clientX - left, frameCount));
  };
  const zoom = (factor: number) =>
    setView((v) => zoomAbout(v, factor, (playhead.target ?? playhead.frame) + 0.5, frameCount));

  return (
    <section
      aria-label="Span timeline"
      className="flex touch-none select-none flex-col rounded-md border border-slate-200 bg-white text-xs"
      data-testid="span-timeline"
      data-frame-count={frameCount}
    >
      <ZoomBar view={view} frameCount={frameCount} zoom={zoom} fit={() => setView(fullView(frameCount))} />
      <div ref={area} className="relative flex flex-col">
        <div className="flex h-6 items-stretch border-b border-slate-200">
          <div className="w-28 shrink-0 pr-2 text-right leading-6 text-slate-600">frame · s</div>
          <div
            ref={ruler}
            className="relative flex-1 cursor-col-resize overflow-hidden bg-slate-50"
            data-testid="timeline-ruler"
            onPointerDown={(e) => {
              scrubbing.current = true;
              e.currentTarget.setPointerCapture?.(e.pointerId);
              scrubTo(e.clientX);
            }}
            onPointerMove={(e) => scrubbing.current && scrubTo(e.clientX)}
            onPointerUp={() => (scrubbing.current = false)}
            onPointerCancel={() => (scrubbing.current = false)}
          >
            <RulerMarks view={view} width={width} times={times} inOut={inOut} />
          </div>
        </div>
        <FrameTickTrack ticks={ticks} geometry={geometry} />
        {tracks.map((track) => (
          <SpanTrack
            key={track.id}
            id={track.id}
            title={track.title}
            tooltip={track.tooltip}
            spans={track.spans}
            geometry={geometry}
            selected={selected}
            editableLabel={track.editableLabel}
            onSelect={onSelect}
            onChange={onChange}
            onCreate={onCreate}
          />
        ))}
        <div className="pointer-events-none absolute inset-y-0 left-28 right-0 overflow-hidden">
          <div ref={line} className="absolute inset-y-0 left-0 w-px bg-red-600" data-testid="playhead" data-frame={0} />
        </div>
      </div>
    </section>
  );
}

/** The frames in view and the zoom buttons above the timeline. */
function ZoomBar({
  view,
  frameCount,
  zoom,
  fit,
}: {
  view: TimelineView;
  frameCount: number;
  zoom: (factor: number) => void;
  fit: () => void;
}) {
  return (
    <div className="flex items-center gap-1 border-b border-slate-200 px-2 py-1">
      <span className="text-slate-500">
        frames {Math.floor(view.first)}–{Math.min(frameCount - 1, Math.ceil(view.first + view.visible) - 1)} of{" "}
        {frameCount}
      </span>
      <div className="ml-auto flex gap-1">
        <ZoomButton label="−" title="Zoom out (-)" testId="zoom-out" onClick={() => zoom(1 / ZOOM_STEP)} />
        <ZoomButton label="+" title="Zoom in (+)" testId="zoom-in" onClick={() => zoom(ZOOM_STEP)} />
        <ZoomButton label="Fit" title="The whole video" testId="zoom-fit" onClick={fit} />
      </div>
    </div>
  );
}

function ZoomButton({
  label,
  title,
  testId,
  onClick,
}: {
  label: string;
  title: string;
  testId: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      title={title}
      onClick={onClick}
      className="rounded border border-slate-300 px-2 leading-5 hover:bg-slate-100"
      data-testid={testId}
    >
      {label}
    </button>
  );
}

function RulerMarks({
  view,
  width,
  times,
  inOut,
}: {
  view: TimelineView;
  width: number;
  times: FrameTimes;
  inOut: { inFrame: number | null; outFrame: number | null };
}) {
  const frameCount = times.timesS.length;
  return (
    <>
      {rulerTicks(view, width, frameCount).map((frame) => (
        <span
          key={frame}
          className="absolute top-0 h-full border-l border-slate-300 pl-0.5 text-[10px] leading-3 text-slate-500"
          style={{ left: frameToX(view, width, frame) }}
        >
          {frame}
          <br />
          {frameStartS(times, frame).toFixed(2)}
        </span>
      ))}
      {inOut.inFrame !== null && (
        <span
          className="absolute top-0 h-full w-0.5 bg-emerald-600"
          style={{ left: frameToX(view, width, inOut.inFrame) }}
          title={`In point: frame ${inOut.inFrame}`}
          data-testid="in-point"
        />
      )}
      {inOut.outFrame !== null && (
        <span
          className="absolute top-0 h-full w-0.5 bg-orange-600"
          style={{ left: frameToX(view, width, inOut.outFrame + 1) }}
          title={`Out point: frame ${inOut.outFrame}`}
          data-testid="out-point"
        />
      )}
    </>
  );
}

/** The frame set's key frames (tall ticks) and clusters (bands), in view only. */
function FrameTickTrack({ ticks, geometry }: { ticks: FrameTicks; geometry: TrackGeometry }) {
  const { view, width, frameCount } = geometry;
  const { from, to } = visibleRange(view, frameCount);
  return (
    <div className="flex h-4 items-stretch border-b border-slate-200" data-testid="frame-ticks">
      <div className="w-28 shrink-0 pr-2 text-right text-[10px] leading-4 text-slate-600">key frames</div>
      <div className="relative flex-1 overflow-hidden">
        {ticks.clusters
          .filter((c) => c.from <= to && c.to >= from)
          .map((c) => (
            <span
              key={`c${c.from}-${c.to}`}
              className="absolute inset-y-1 bg-indigo-200"
              style={{
                left: frameToX(view, width, c.from),
                width: Math.max(1, frameToX(view, width, c.to + 1) - frameToX(view, width, c.from)),
              }}
            />
          ))}
        {ticks.keyFrames
          .filter((f) => f >= from && f <= to)
          .map((f) => (
            <span
              key={f}
              className="absolute inset-y-0 w-0.5 bg-indigo-600"
              style={{ left: frameToX(view, width, f + 0.5) }}
              title={`Key frame at frame ${f}`}
              data-testid="key-frame-tick"
            />
          ))}
      </div>
    </div>
  );
}
