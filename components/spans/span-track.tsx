"use client";

/**
 * One track of the timeline: the spans of one label (or the judge's), only those in view drawn. One's own spans are
 * editable: a click selects, dragging the body moves it and dragging an edge moves that edge, both by whole frames;
 * a drag on empty track marks a new span of the track's label. Others' spans are dimmed and only selectable.
 */
import { useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from "react";
import type { BoxKeyframe } from "@/lib/spans/span-types";
import {
  frameToX,
  movedBy,
  pixelsToFrames,
  type SpanEdge,
  type TimelineView,
  visibleRange,
  visibleSpans,
  withEdgeAt,
  xToFrame,
} from "./timeline-math";

export interface TimelineSpan {
  /** Own spans: their key on screen; others': their id. */
  key: string;
  /** The server's id (null until a new span is saved). */
  id: string | null;
  label: string;
  startFrame: number;
  endFrame: number;
  boxes: readonly BoxKeyframe[];
  kind: "own" | "other" | "judge";
  /** Who marked it, for its tooltip. */
  author: string;
  /** Own spans: saving, unsaved, in conflict. */
  status?: string;
}

export interface TrackGeometry {
  view: TimelineView;
  width: number;
  frameCount: number;
}

interface DragState {
  key: string | null;
  mode: SpanEdge | "body" | "new";
  x0: number;
  frame0: number;
  from: { startFrame: number; endFrame: number };
  moved: boolean;
}

/** Where a drag has the span now (whole frames). */
export function dragged(
  drag: Pick<DragState, "mode" | "from" | "frame0">,
  dx: number,
  frameAtPointer: number,
  geometry: TrackGeometry,
): { startFrame: number; endFrame: number } {
  const { view, width, frameCount } = geometry;
  if (drag.mode === "new")
    return { startFrame: Math.min(drag.frame0, frameAtPointer), endFrame: Math.max(drag.frame0, frameAtPointer) };
  // Only the frames: `from` may be the whole span on screen, and its other fields are no edit (the save sends the edit).
  const { startFrame, endFrame } =
    drag.mode === "body"
      ? movedBy(drag.from, pixelsToFrames(view, width, dx), frameCount)
      : withEdgeAt(drag.from, drag.mode, frameAtPointer, frameCount);
  return { startFrame, endFrame };
}

const TONES: Record<TimelineSpan["kind"], string> = {
  own: "bg-indigo-500/80 border-indigo-700 text-white",
  other: "bg-slate-400/40 border-slate-500 text-slate-800",
  judge: "bg-rose-500/60 border-rose-700 text-white",
};

/**
 * A track's pointer gestures: a drag on empty track marks a new span, a drag of an own span's body or edge moves it,
 * a click selects (or, on empty track, clears the selection); `preview` is the frames under the drag meanwhile.
 */
function useTrackDrag(
  lane: RefObject<HTMLDivElement | null>,
  geometry: TrackGeometry,
  {
    editableLabel,
    onSelect,
    onChange,
    onCreate,
  }: {
    editableLabel: string | null;
    onSelect: (key: string | null) => void;
    onChange: (key: string, frames: { startFrame: number; endFrame: number }) => void;
    onCreate: (label: string, frames: { startFrame: number; endFrame: number }) => void;
  },
) {
  const drag = useRef<DragState | null>(null);
  const [preview, setPreview] = useState<{ key: string | null; startFrame: number; endFrame: number } | null>(null);
  const { view, width, frameCount } = geometry;

  const frameAt = (clientX: number) =>
    xToFrame(view, width, clientX - (lane.current?.getBoundingClientRect().left ?? 0), frameCount);

  const begin = (event: ReactPointerEvent, key: string | null, mode: DragState["mode"], from: DragState["from"]) => {
    if (event.button !== 0) return;
    // No preventDefault: the press still focuses the editor (its keys act while focus is inside it when embedded);
    // the timeline is unselectable, so a drag selects no text.
    event.stopPropagation();
    drag.current = { key, mode, x0: event.clientX, frame0: frameAt(event.clientX), from, moved: false };
    lane.current?.setPointerCapture?.(event.pointerId);
  };
  const onMove = (event: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const next = dragged(d, event.clientX - d.x0, frameAt(event.clientX), geometry);
    d.moved = d.moved || Math.abs(event.clientX - d.x0) > 2;
    if (!d.moved) return;
    if (!preview || preview.startFrame !== next.startFrame || preview.endFrame !== next.endFrame)
      setPreview({ key: d.key, ...next });
  };
  const onUp = (event: ReactPointerEvent) => {
    const d = drag.current;
    drag.current = null;
    setPreview(null);
    if (!d) return;
    const next = dragged(d, event.clientX - d.x0, frameAt(event.clientX), geometry);
    if (d.mode === "new") {
      // A click on empty track (no drag) only clears the selection.
      if (editableLabel && d.moved) onCreate(editableLabel, next);
      else onSelect(null);
    } else if (d.key && d.moved && (next.startFrame !== d.from.startFrame || next.endFrame !== d.from.endFrame))
      onChange(d.key, next);
    else if (d.key) onSelect(d.key);
  };

  const cancel = () => {
    drag.current = null;
    setPreview(null);
  };
  return { preview, frameAt, begin, onMove, onUp, cancel };
}

/** The dashed outline of the span a drag on empty track is marking. */
function NewSpanPreview({
  frames,
  geometry: { view, width },
}: {
  frames: { startFrame: number; endFrame: number };
  geometry: TrackGeometry;
}) {
  return (
    <div
      className="absolute inset-y-1 rounded border border-dashed border-indigo-600 bg-indigo-300/40"
      style={{
        left: frameToX(view, width, frames.startFrame),
        width: Math.max(2, frameToX(view, width, frames.endFrame + 1) - frameToX(view, width, frames.startFrame)),
      }}
      data-testid="span-new"
    />
  );
}

export function SpanTrack({
  id,
  title,
  tooltip,
  spans,
  geometry,
  selected,
  editableLabel,
  onSelect,
  onChange,
  onCreate,
}: {
  id: string;
  title: string;
  tooltip?: string;
  spans: readonly TimelineSpan[];
  geometry: TrackGeometry;
  selected: string | null;
  /** The label a drag on empty track marks (null: this track takes no new spans). */
  editableLabel: string | null;
  onSelect: (key: string | null) => void;
  onChange: (key: string, frames: { startFrame: number; endFrame: number }) => void;
  onCreate: (label: string, frames: { startFrame: number; endFrame: number }) => void;
}) {
  const lane = useRef<HTMLDivElement>(null);
  const { view, frameCount } = geometry;
  const range = visibleRange(view, frameCount);
  const shown = visibleSpans(spans, range);
  const { preview, frameAt, begin, onMove, onUp, cancel } = useTrackDrag(lane, geometry, {
    editableLabel,
    onSelect,
    onChange,
    onCreate,
  });

  return (
    <div className="flex h-7 items-stretch border-b border-slate-100" data-testid={`span-track-${id}`}>
      <div
        className="w-28 shrink-0 truncate pr-2 text-right text-[11px] leading-7 text-slate-600"
        title={tooltip ?? title}
      >
        {title}
      </div>
      <div
        ref={lane}
        className={`relative flex-1 overflow-hidden ${editableLabel ? "cursor-copy" : ""}`}
        onPointerDown={(e) => {
          if (editableLabel) {
            const frame = frameAt(e.clientX);
            begin(e, null, "new", { startFrame: frame, endFrame: frame });
          }
        }}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={cancel}
      >
        {shown.map((span) => {
          const frames = preview && preview.key === span.key ? preview : span;
          return (
            <SpanBar
              key={span.key}
              span={span}
              frames={frames}
              geometry={geometry}
              selected={selected === span.key}
              onPointerDown={(e, mode) =>
                span.kind === "own" ? begin(e, span.key, mode, span) : (e.stopPropagation(), onSelect(span.key))
              }
            />
          );
        })}
        {preview && preview.key === null && <NewSpanPreview frames={preview} geometry={geometry} />}
      </div>
    </div>
  );
}

function SpanBar({
  span,
  frames,
  geometry,
  selected,
  onPointerDown,
}: {
  span: TimelineSpan;
  frames: { startFrame: number; endFrame: number };
  geometry: TrackGeometry;
  selected: boolean;
  onPointerDown: (event: ReactPointerEvent, mode: SpanEdge | "body") => void;
}) {
  const { view, width } = geometry;
  const left = frameToX(view, width, frames.startFrame);
  const right = frameToX(view, width, frames.endFrame + 1);
  const own = span.kind === "own";
  return (
    <div
      className={`absolute inset-y-1 rounded-sm border text-[10px] leading-4 ${TONES[span.kind]} ${selected ? "ring-2 ring-amber-400" : ""} ${own ? "cursor-grab" : "cursor-pointer"}`}
      style={{ left, width: Math.max(2, right - left) }}
      title={`${span.label} · frames ${frames.startFrame}–${frames.endFrame} · ${span.author}${span.status && span.status !== "saved" ? ` · ${span.status}` : ""}`}
      data-testid={`span-${span.id ?? span.key}`}
      data-key={span.key}
      data-kind={span.kind}
      data-start={frames.startFrame}
      data-end={frames.endFrame}
      data-status={span.status ?? "saved"}
      data-selected={selected ? "true" : "false"}
      onPointerDown={(e) => onPointerDown(e, "body")}
    >
      {span.boxes.map((box) => (
        <span
          key={box.frame}
          className="pointer-events-none absolute top-0 h-1.5 w-1.5 -translate-x-1/2 rotate-45 bg-amber-300"
          style={{ left: frameToX(view, width, box.frame + 0.5) - left }}
          data-testid="box-keyframe"
        />
      ))}
      {own && (
        <>
          <span
            className="absolute inset-y-0 left-0 w-1.5 cursor-ew-resize bg-indigo-900/40"
            data-testid="span-edge-start"
            onPointerDown={(e) => onPointerDown(e, "start")}
          />
          <span
            className="absolute inset-y-0 right-0 w-1.5 cursor-ew-resize bg-indigo-900/40"
            data-testid="span-edge-end"
            onPointerDown={(e) => onPointerDown(e, "end")}
          />
        </>
      )}
    </div>
  );
}
