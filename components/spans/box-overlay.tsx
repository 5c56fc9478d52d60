"use client";

/**
 * The selected span's box over the picture. On every frame it shows the box `boxAt` gives (the keyframe there, or the
 * interpolation between two), moved in the DOM as the playhead moves. On the paused frame of one's own span, a drag
 * on empty picture draws a box, a drag inside the box moves it and a drag from its corner resizes it: each change is a
 * keyframe on that frame (replacing one already there). Boxes are fractions of the picture, as spans store them.
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from "react";
import { type Box, boxAt } from "@/lib/spans/boxes";
import type { BoxKeyframe } from "@/lib/spans/span-types";
import type { Playhead } from "./playhead";

/** The picture's rectangle inside the `<video>` element (letterboxed: object-fit contain). */
function pictureRect(video: HTMLVideoElement): { left: number; top: number; width: number; height: number } {
  const cw = video.clientWidth;
  const ch = video.clientHeight;
  const vw = video.videoWidth || cw;
  const vh = video.videoHeight || ch;
  if (!cw || !ch || !vw || !vh) return { left: 0, top: 0, width: cw, height: ch };
  const scale = Math.min(cw / vw, ch / vh);
  const width = vw * scale;
  const height = vh * scale;
  return { left: (cw - width) / 2, top: (ch - height) / 2, width, height };
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** A box moved by (dx, dy), or resized by them from its bottom-right corner, kept inside the picture. */
export function draggedBox(from: Box, mode: "move" | "resize", dx: number, dy: number): Box {
  if (mode === "move") {
    const x = Math.min(Math.max(0, from.x + dx), 1 - from.w);
    const y = Math.min(Math.max(0, from.y + dy), 1 - from.h);
    return { ...from, x, y };
  }
  return {
    ...from,
    w: Math.max(0.005, Math.min(1 - from.x, from.w + dx)),
    h: Math.max(0.005, Math.min(1 - from.y, from.h + dy)),
  };
}

/** The span's keyframes with `box` as the keyframe on `frame` (in frame order). */
export function withKeyframe(boxes: readonly BoxKeyframe[], frame: number, box: Box): BoxKeyframe[] {
  const keyframe: BoxKeyframe = {
    frame,
    x: clamp01(box.x),
    y: clamp01(box.y),
    w: Math.min(box.w, 1 - clamp01(box.x)),
    h: Math.min(box.h, 1 - clamp01(box.y)),
    enabled: true,
  };
  return [...boxes.filter((b) => b.frame !== frame), keyframe].sort((a, b) => a.frame - b.frame);
}

interface Drag {
  mode: "draw" | "move" | "resize";
  x0: number;
  y0: number;
  from: Box | null;
  box: Box | null;
}

export function BoxOverlay({
  videoRef,
  playhead,
  span,
  editable,
  onBoxes,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  playhead: Playhead;
  span: { startFrame: number; endFrame: number; boxes: readonly BoxKeyframe[] } | null;
  editable: boolean;
  onBoxes: (boxes: BoxKeyframe[]) => void;
}) {
  const layer = useRef<HTMLDivElement>(null);
  const boxNode = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const [paused, setPaused] = useState(playhead.paused);
  const [frame, setFrame] = useState(playhead.frame);

  // The box follows the playhead in the DOM; the paused frame is kept in state only while paused (for editing).
  useEffect(() => {
    const place = (at: number) => {
      setPaused(playhead.paused);
      if (playhead.paused) setFrame(at);
      const video = videoRef.current;
      const node = boxNode.current;
      if (!video || !node || drag.current) return;
      const box = span ? boxAt(span.boxes, at, span.endFrame) : null;
      show(node, video, box);
    };
    place(playhead.frame);
    return playhead.subscribe(place);
  }, [playhead, span, videoRef]);

  const inSpan = !!span && frame >= span.startFrame && frame <= span.endFrame;
  const active = editable && paused && inSpan;

  const fractionAt = (event: ReactPointerEvent) => {
    const video = videoRef.current!;
    const rect = pictureRect(video);
    const bounds = video.getBoundingClientRect();
    return {
      x: clamp01((event.clientX - bounds.left - rect.left) / (rect.width || 1)),
      y: clamp01((event.clientY - bounds.top - rect.top) / (rect.height || 1)),
    };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!active || !span || !videoRef.current) return;
    const at = fractionAt(event);
    const current = boxAt(span.boxes, frame, span.endFrame);
    const inside =
      current &&
      at.x >= current.x &&
      at.x <= current.x + current.w &&
      at.y >= current.y &&
      at.y <= current.y + current.h;
    const nearCorner =
      current && Math.abs(at.x - (current.x + current.w)) < 0.03 && Math.abs(at.y - (current.y + current.h)) < 0.03;
    const mode = nearCorner ? "resize" : inside ? "move" : "draw";
    drag.current = { mode, x0: at.x, y0: at.y, from: current, box: current };
    // Not prevented: the press focuses the editor as any press inside it does.
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || !videoRef.current || !boxNode.current) return;
    const at = fractionAt(event);
    d.box =
      d.mode === "draw"
        ? { x: Math.min(d.x0, at.x), y: Math.min(d.y0, at.y), w: Math.abs(at.x - d.x0), h: Math.abs(at.y - d.y0) }
        : draggedBox(d.from!, d.mode, at.x - d.x0, at.y - d.y0);
    show(boxNode.current, videoRef.current, d.box);
  };
  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (!d || !span || !d.box || d.box.w < 0.005 || d.box.h < 0.005) return;
    onBoxes(withKeyframe(span.boxes, frame, d.box));
  };

  return (
    <div
      ref={layer}
      // Short of the bottom, where the player's own controls are: play and the seek bar stay clickable while editing.
      className={`absolute inset-x-0 top-0 bottom-10 touch-none select-none ${active ? "cursor-crosshair" : "pointer-events-none"}`}
      data-testid="box-overlay"
      data-active={active ? "true" : "false"}
      data-frame={frame}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (drag.current = null)}
    >
      <div
        ref={boxNode}
        className="pointer-events-none absolute hidden border-2 border-amber-400 bg-amber-300/10"
        data-testid="box"
      >
        <span className="absolute -bottom-1.5 -right-1.5 h-3 w-3 rounded-sm bg-amber-400" />
      </div>
    </div>
  );
}

/** Places the box node over the picture (hidden for no box). */
function show(node: HTMLDivElement, video: HTMLVideoElement, box: Box | null) {
  if (!box) {
    node.style.display = "none";
    return;
  }
  const rect = pictureRect(video);
  node.style.display = "block";
  node.style.left = `${rect.left + box.x * rect.width}px`;
  node.style.top = `${rect.top + box.y * rect.height}px`;
  node.style.width = `${box.w * rect.width}px`;
  node.style.height = `${box.h * rect.height}px`;
}
