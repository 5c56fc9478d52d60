"use client";

/**
 * A frame-accurate player: the video file in a `<video>`, frame indices from the video's own frame times (frame i is
 * shown from timesS[i]). Seeking to frame i goes to the middle of its interval (frameSeekS), so the frame shown is i
 * whatever the container's rounding and whatever the frame rate's variations; the frame actually presented is read
 * from requestVideoFrameCallback's `mediaTime` (Chromium), the player's time where that is missing. The presented frame
 * goes to the playhead (no React state per frame) and is shown as `frame-index`.
 */
import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { type FrameTimes, frameAtTime, frameEndS, frameSeekS, frameStartS } from "@/lib/frames/frame-times";
import type { Playhead } from "./playhead";

/** A stretch the player repeats (`l`), in frames inclusive. */
export interface LoopRange {
  startFrame: number;
  endFrame: number;
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, meta: { mediaTime: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/** Seeks to show exactly `frame` (clamped to the video) and remembers it as the step target. */
export function seekToFrame(video: HTMLVideoElement, times: FrameTimes, playhead: Playhead, frame: number) {
  const last = Math.max(0, times.timesS.length - 1);
  const target = Math.min(Math.max(0, frame), last);
  playhead.target = target;
  video.currentTime = frameSeekS(times, target);
}

/** One frame back or forward from the last frame asked for (or shown): repeated presses add up before the seek lands. */
export function stepFrame(video: HTMLVideoElement, times: FrameTimes, playhead: Playhead, by: number) {
  video.pause();
  seekToFrame(video, times, playhead, (playhead.target ?? playhead.frame) + by);
}

/**
 * Repeats the loop range. The stop is timed from every frame presented inside the range: a timer pauses the player when
 * the last frame's time comes, so a busy machine that drops that frame's callback does not let the loop run on. When
 * the last frame is presented the player pauses at once, keeps it on screen for the rest of its time, seeks to the
 * loop's start and plays again once there. A frame outside the range while playing (the loop just set) goes back at
 * once. On a machine too busy to keep time, the media pipeline may still present a few frames past the end that it had
 * queued before the pause took hold; they show until the seek to the start lands.
 */
function createLooper(element: HTMLVideoElement, times: FrameTimes, loop: RefObject<LoopRange | null>) {
  let timer = 0;
  let endTimer = 0;
  let restarting = false;
  const onSeeked = () => {
    element.removeEventListener("seeked", onSeeked);
    restarting = false;
    if (loop.current) void element.play().catch(() => {});
  };
  const restart = (afterMs: number) => {
    window.clearTimeout(endTimer);
    restarting = true;
    element.pause();
    timer = window.setTimeout(() => {
      const range = loop.current;
      if (!range) {
        restarting = false;
        return;
      }
      element.addEventListener("seeked", onSeeked);
      element.currentTime = frameSeekS(times, range.startFrame);
    }, afterMs);
  };
  const msUntil = (timeS: number, mediaTime: number) =>
    Math.max(0, ((timeS - mediaTime) / (element.playbackRate || 1)) * 1000);
  /** From a frame inside the range: pause when the last frame is on screen, whether or not its callback comes. */
  const stopAtEnd = (range: LoopRange, mediaTime: number) => {
    window.clearTimeout(endTimer);
    const endSeekS = frameSeekS(times, range.endFrame);
    endTimer = window.setTimeout(
      () => {
        if (loop.current !== range || restarting || element.paused) return;
        restart(msUntil(frameEndS(times, range.endFrame), endSeekS));
      },
      msUntil(endSeekS, mediaTime),
    );
  };
  return {
    restarting: () => restarting,
    presented(frame: number, mediaTime: number) {
      const range = loop.current;
      if (!range || restarting || element.paused) return;
      if (frame > range.endFrame || frame < range.startFrame) restart(0);
      else if (frame === range.endFrame) restart(msUntil(frameEndS(times, frame), mediaTime));
      else stopAtEnd(range, mediaTime);
    },
    dispose() {
      window.clearTimeout(timer);
      window.clearTimeout(endTimer);
      element.removeEventListener("seeked", onSeeked);
    },
  };
}

/** Keeps the playhead on the presented frame, and repeats the loop range while one is set. */
function usePresentedFrame(
  video: RefObject<HTMLVideoElement | null>,
  times: FrameTimes | null,
  playhead: Playhead,
  loop: RefObject<LoopRange | null>,
) {
  useEffect(() => {
    const element = video.current as FrameCallbackVideo | null;
    if (!element || !times) return;
    const looper = createLooper(element, times, loop);
    const present = (mediaTime: number) => {
      const frame = frameAtTime(times, mediaTime);
      if (playhead.target === frame) playhead.target = null;
      playhead.set(frame);
      looper.presented(frame, mediaTime);
    };
    let handle = 0;
    let live = true;
    const onFrame = (_now: number, meta: { mediaTime: number }) => {
      if (!live) return;
      present(meta.mediaTime);
      handle = element.requestVideoFrameCallback!(onFrame);
    };
    const hasFrameCallback = typeof element.requestVideoFrameCallback === "function";
    if (hasFrameCallback) handle = element.requestVideoFrameCallback!(onFrame);
    const onTime = () => present(element.currentTime);
    const onPlay = () => playhead.setPaused(false);
    const onPause = () => {
      playhead.setPaused(true);
      // A pause of the user's ends the loop; the loop's own pause at its end does not.
      if (!looper.restarting()) loop.current = null;
    };
    if (!hasFrameCallback) {
      element.addEventListener("timeupdate", onTime);
      element.addEventListener("seeked", onTime);
    }
    element.addEventListener("loadedmetadata", onTime);
    element.addEventListener("play", onPlay);
    element.addEventListener("pause", onPause);
    return () => {
      live = false;
      looper.dispose();
      if (hasFrameCallback) element.cancelVideoFrameCallback?.(handle);
      element.removeEventListener("timeupdate", onTime);
      element.removeEventListener("seeked", onTime);
      element.removeEventListener("loadedmetadata", onTime);
      element.removeEventListener("play", onPlay);
      element.removeEventListener("pause", onPause);
    };
  }, [video, times, playhead, loop]);
}

/**
 * The presented frame's time and index ("0.040 s · frame 1", as the video page's frame stepping always read), written
 * straight into the DOM as the playhead moves.
 */
function FrameCounter({ times, playhead }: { times: FrameTimes | null; playhead: Playhead }) {
  const index = useRef<HTMLSpanElement>(null);
  const time = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const show = (frame: number) => {
      if (index.current) {
        index.current.textContent = String(frame);
        index.current.dataset.frame = String(frame);
      }
      if (time.current && times) time.current.textContent = `${frameStartS(times, frame).toFixed(3)} s`;
    };
    show(playhead.frame);
    return playhead.subscribe(show);
  }, [playhead, times]);
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 text-xs text-slate-600" data-testid="frame-counter">
      <span className="font-mono tabular-nums text-slate-900" data-testid="frame-time">
        <span ref={time}>{times ? `${frameStartS(times, playhead.frame).toFixed(3)} s` : "…"}</span> · frame{" "}
        <span ref={index} data-testid="frame-index" data-frame={playhead.frame}>
          {playhead.frame}
        </span>
      </span>
      {times && <span>of {times.timesS.length} frames</span>}
      <span>
        <kbd className="font-mono">,</kbd> / <kbd className="font-mono">.</kbd> one frame back / forward
      </span>
      {times?.variable && <span className="text-amber-700">variable frame rate: each frame at its own time</span>}
    </p>
  );
}

export function FramePlayer({
  videoUrl,
  times,
  playhead,
  videoRef,
  loop,
  preload = "auto",
  children,
}: {
  videoUrl: string;
  times: FrameTimes | null;
  playhead: Playhead;
  videoRef: RefObject<HTMLVideoElement | null>;
  /** The stretch to repeat while playing (cleared when the player pauses). */
  loop: RefObject<LoopRange | null>;
  /** "metadata" where a page holds many players (the span adjudication): each reads its file once played. */
  preload?: "auto" | "metadata";
  /** Drawn over the picture (the box overlay). */
  children?: ReactNode;
}) {
  usePresentedFrame(videoRef, times, playhead, loop);
  return (
    <div className="flex flex-col gap-1">
      <div className="relative">
        <video
          ref={videoRef}
          src={videoUrl}
          controls
          preload={preload}
          className="max-h-[60vh] w-full rounded-lg bg-black"
          data-testid="player"
        />
        {children}
      </div>
      <FrameCounter times={times} playhead={playhead} />
    </div>
  );
}
