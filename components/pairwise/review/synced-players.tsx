"use client";

/**
 * Two players that play, pause, seek and step frames together. The left one (or the one that is not drawn broken)
 * leads: on each frame it presents (requestVideoFrameCallback where the browser has it, else each animation frame)
 * the follower's position is compared with the leader's, both read at that same instant. A follower more than a
 * quarter of a frame off is brought back by a playback rate in proportion to the gap (half a second or more: a seek).
 * The drift measured while both play is written on the container (`data-drift-frames`, `-p95`, `-max`, `-samples`)
 * so a test or the drift benchmark can read it.
 */
import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from "react";
import type { ReviewVideo } from "@/lib/pairwise/review/review.types";
import type { Side } from "@/lib/pairwise/verdicts";
import { drawCorrupted, seededRandom, seedOf, SHUFFLE_EVERY_FRAMES } from "./broken-rendering";
import type { PlayerCommand } from "./review-keys";

export interface ShownVideo {
  video: ReviewVideo;
  /** "Video A" / "Video B" is never said to a reviewer; the label is the side, and the name when not blind. */
  caption: string;
}

export interface SyncedPlayersHandle {
  run(command: PlayerCommand): void;
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: { mediaTime: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

const MAX_SAMPLES = 20_000;
const DEFAULT_FPS = 24;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** A gap (seconds) the follower seeks away instead of catching up by its playback rate. */
const SEEK_GAP_S = 0.5;

/**
 * The follower's playback rate: 1 within a quarter of a frame of the leader; beyond, faster or slower in proportion
 * to the gap, so a frame's gap closes in about an eighth of a second, before it grows past one frame (at most ±75%;
 * a third of the gap per frame at 24 fps, so the correction does not overshoot).
 */
export function correctedRate(gapSeconds: number, fps: number, playing: boolean): number {
  if (!playing || Math.abs(gapSeconds) <= 0.25 / fps) return 1;
  return 1 + Math.max(-0.75, Math.min(0.75, gapSeconds * 8));
}

/** Does this element follow the leader's clock? A frozen copy never moves; a shuffled one jumps on its own. */
const follows = (video: ReviewVideo) => video.rendering !== "frozen" && video.rendering !== "shuffled";

interface SyncParts {
  fps: number;
  pairId: string;
  leaderSide: Side;
  left: ReviewVideo;
  right: ReviewVideo;
}

function useSyncLoop(
  parts: SyncParts,
  elements: { left: React.RefObject<HTMLVideoElement | null>; right: React.RefObject<HTMLVideoElement | null> },
  canvases: { left: React.RefObject<HTMLCanvasElement | null>; right: React.RefObject<HTMLCanvasElement | null> },
  container: React.RefObject<HTMLDivElement | null>,
  onTime: (seconds: number) => void,
) {
  const { fps, pairId, leaderSide, left, right } = parts;
  useEffect(() => {
    const leader = elements[leaderSide].current as FrameCallbackVideo | null;
    const followerSide: Side = leaderSide === "left" ? "right" : "left";
    const follower = elements[followerSide].current;
    const followerVideo = followerSide === "left" ? left : right;
    if (!leader || !follower) return;
    const samples: number[] = [];
    const random = seededRandom(seedOf(pairId));
    let frames = 0;
    let handle = 0;
    let stopped = false;
    const record = (drift: number) => {
      if (samples.length >= MAX_SAMPLES) samples.shift();
      samples.push(drift);
      const sorted = [...samples].sort((x, y) => x - y);
      const box = container.current;
      if (!box) return;
      box.dataset.driftFrames = drift.toFixed(3);
      box.dataset.driftP95 = percentile(sorted, 0.95).toFixed(3);
      box.dataset.driftMax = sorted[sorted.length - 1]!.toFixed(3);
      box.dataset.driftSamples = String(samples.length);
    };
    const tick = () => {
      if (stopped) return;
      frames++;
      const playing = !leader.paused && !leader.ended;
      if (follows(followerVideo)) {
        if (playing && follower.paused) void follower.play().catch(() => undefined);
        if (!playing && !follower.paused) follower.pause();
        const gap = leader.currentTime - follower.currentTime;
        // Both playing with data to play: a player waiting for data (or seeking) is not playing, and is not measured.
        const measurable = !follower.paused && !follower.seeking && follower.readyState >= 3 && leader.readyState >= 3;
        if (playing && measurable) record(Math.abs(gap) * fps);
        follower.playbackRate = correctedRate(gap, fps, playing);
        // A seek takes a decode from the last key frame: only a gap a rate change cannot close soon is seeked away.
        if (Math.abs(gap) > SEEK_GAP_S && !follower.seeking) follower.currentTime = leader.currentTime;
      } else if (followerVideo.rendering === "shuffled" && playing && frames % SHUFFLE_EVERY_FRAMES === 0) {
        follower.currentTime = random() * (Number.isFinite(follower.duration) ? follower.duration : 1);
      }
      for (const side of ["left", "right"] as const) {
        const canvas = canvases[side].current;
        const element = elements[side].current;
        if (canvas && element) drawCorrupted(canvas, element, random);
      }
      onTime(leader.currentTime);
      schedule();
    };
    const schedule = () => {
      if (stopped) return;
      handle = leader.requestVideoFrameCallback
        ? leader.requestVideoFrameCallback(tick)
        : window.requestAnimationFrame(tick);
    };
    // requestVideoFrameCallback only fires on new frames: a paused leader is also watched by its own events.
    const onEvent = () => {
      // Paused (a step, a seek, a pause): the follower shows exactly the leader's frame.
      if (follows(followerVideo) && leader.paused) {
        if (!follower.paused) follower.pause();
        follower.playbackRate = 1;
        if (Math.abs(leader.currentTime - follower.currentTime) > 0.5 / fps) follower.currentTime = leader.currentTime;
      }
      onTime(leader.currentTime);
      const canvas = canvases[followerSide].current;
      if (canvas) drawCorrupted(canvas, follower, random);
    };
    leader.addEventListener("seeked", onEvent);
    leader.addEventListener("pause", onEvent);
    follower.addEventListener("seeked", onEvent);
    schedule();
    return () => {
      stopped = true;
      if (leader.cancelVideoFrameCallback) leader.cancelVideoFrameCallback(handle);
      else window.cancelAnimationFrame(handle);
      leader.removeEventListener("seeked", onEvent);
      leader.removeEventListener("pause", onEvent);
      follower.removeEventListener("seeked", onEvent);
    };
  }, [fps, pairId, leaderSide, left, right, elements, canvases, container, onTime]);
}

function Player({
  side,
  shown,
  hidden,
  videoRef,
  canvasRef,
}: {
  side: Side;
  shown: ShownVideo;
  hidden: boolean;
  videoRef: React.RefObject<HTMLVideoElement | null>;
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
}) {
  const { video } = shown;
  const corrupted = video.rendering === "corrupted";
  return (
    <figure className={hidden ? "hidden" : "min-w-0 flex-1"} data-testid={`player-${side}`}>
      {video.url ? (
        <div className="relative bg-black">
          <video
            ref={videoRef}
            src={video.url}
            muted
            playsInline
            preload="auto"
            crossOrigin="anonymous"
            className={corrupted ? "invisible absolute inset-0 h-full w-full" : "block max-h-[60vh] w-full"}
            data-testid={`video-${side}`}
            data-video-id={video.videoId ?? ""}
          />
          {corrupted && <canvas ref={canvasRef} className="block max-h-[60vh] w-full" />}
        </div>
      ) : (
        <p className="flex h-48 items-center justify-center bg-slate-100 text-sm text-slate-500">
          This video was deleted after the pair was made.
        </p>
      )}
      <figcaption className="mt-1 text-xs text-slate-600" data-testid={`caption-${side}`}>
        {shown.caption}
      </figcaption>
    </figure>
  );
}

function PlayerControls({
  run,
  seek,
  time,
  duration,
  fps,
}: {
  run: (command: PlayerCommand) => void;
  seek: (seconds: number) => void;
  time: number;
  duration: number;
  fps: number;
}) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <button type="button" className="rounded border px-2" onClick={() => run("step-back")} aria-label="Frame back">
        ‹
      </button>
      <button type="button" className="rounded border px-2" onClick={() => run("toggle")} data-testid="play-toggle">
        Play / pause
      </button>
      <button
        type="button"
        className="rounded border px-2"
        onClick={() => run("step-forward")}
        aria-label="Frame forward"
      >
        ›
      </button>
      <input
        type="range"
        aria-label="Seek both videos"
        className="flex-1"
        min={0}
        max={duration || 1}
        step={1 / fps}
        value={Math.min(time, duration || 1)}
        onChange={(event) => seek(Number(event.target.value))}
      />
      <span className="w-20 text-right font-mono text-xs" data-testid="player-time">
        {time.toFixed(2)} s
      </span>
    </div>
  );
}

export const SyncedPlayers = forwardRef<
  SyncedPlayersHandle,
  { pairId: string; left: ShownVideo; right: ShownVideo; zoom: Side | null }
>(function SyncedPlayers({ pairId, left, right, zoom }, ref) {
  const leftRef = useRef<HTMLVideoElement | null>(null);
  const rightRef = useRef<HTMLVideoElement | null>(null);
  const leftCanvas = useRef<HTMLCanvasElement | null>(null);
  const rightCanvas = useRef<HTMLCanvasElement | null>(null);
  const container = useRef<HTMLDivElement | null>(null);
  const [elements] = useState(() => ({ left: leftRef, right: rightRef }));
  const [canvases] = useState(() => ({ left: leftCanvas, right: rightCanvas }));
  const [time, setTime] = useState(0);
  const fps = left.video.fps ?? right.video.fps ?? DEFAULT_FPS;
  const duration = left.video.durationS ?? right.video.durationS ?? 0;
  const leaderSide: Side = follows(left.video) ? "left" : "right";
  useSyncLoop(
    { fps, pairId, leaderSide, left: left.video, right: right.video },
    elements,
    canvases,
    container,
    setTime,
  );

  const seek = useCallback(
    (seconds: number) => {
      for (const [side, element] of [
        ["left", leftRef.current],
        ["right", rightRef.current],
      ] as const) {
        const video = side === "left" ? left.video : right.video;
        if (element && video.rendering !== "frozen") element.currentTime = Math.max(0, seconds);
      }
      setTime(seconds);
    },
    [left.video, right.video],
  );

  const run = useCallback(
    (command: PlayerCommand) => {
      const leader = elements[leaderSide].current;
      if (!leader) return;
      switch (command) {
        case "toggle":
          if (leader.paused) {
            void leader.play().catch(() => undefined);
            const other = elements[leaderSide === "left" ? "right" : "left"].current;
            const otherVideo = leaderSide === "left" ? right.video : left.video;
            if (other && otherVideo.rendering !== "frozen") void other.play().catch(() => undefined);
          } else {
            leftRef.current?.pause();
            rightRef.current?.pause();
          }
          return;
        case "step-back":
        case "step-forward":
          leftRef.current?.pause();
          rightRef.current?.pause();
          seek(leader.currentTime + (command === "step-forward" ? 1 : -1) / fps);
          return;
        default: {
          const unknown: never = command;
          return unknown;
        }
      }
    },
    [elements, leaderSide, left.video, right.video, seek, fps],
  );
  useImperativeHandle(ref, () => ({ run }), [run]);

  return (
    <div ref={container} data-testid="synced-players" data-fps={fps} className="space-y-2">
      <div className="flex gap-2">
        <Player side="left" shown={left} hidden={zoom === "right"} videoRef={leftRef} canvasRef={leftCanvas} />
        <Player side="right" shown={right} hidden={zoom === "left"} videoRef={rightRef} canvasRef={rightCanvas} />
      </div>
      <PlayerControls run={run} seek={seek} time={time} duration={duration} fps={fps} />
    </div>
  );
});
