"use client";

import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import { isTypingTarget } from "@/components/is-typing-target";
import { keyFramesAndClusters } from "@/lib/judge/media/frame-scopes";
import { FrameLightbox } from "./frame-lightbox";
import type { ViewerFrame } from "./viewer-frame";

export type { ViewerFrame } from "./viewer-frame";

/** When the video's frame rate is not known (older imports), `,` / `.` step by this many frames per second. */
const FALLBACK_FPS = 30;

/** Each key frame's cluster (the key frame with its members), in the strip's order. */
type Clusters = readonly (readonly ViewerFrame[])[];

/** The key frame (its ordinal) whose cluster holds the frame on screen; the first before any; null without key frames. */
function currentKeyFrameOrdinal(
  currentFrame: ViewerFrame | null | undefined,
  clusters: Clusters,
  keyFrameCount: number,
): number | null {
  return currentFrame ? clusters.findIndex((members) => members.includes(currentFrame)) : keyFrameCount > 0 ? 0 : null;
}

/** A frame's caption: "frame 3 of 64 · 1.23 s" in a uniform set, else its key frame and cluster size. */
function describeFrame(frame: ViewerFrame, clusters: Clusters, keyFrameCount: number, atTimes: boolean): string {
  const ordinal = clusters.findIndex((members) => members.includes(frame));
  if (atTimes) return `frame ${ordinal + 1} of ${keyFrameCount} · ${frame.timestampS.toFixed(2)} s`;
  return `${frame.isKeyFrame ? "key frame" : "frame of key frame"} ${ordinal + 1} · cluster of ${clusters[ordinal]?.length ?? 1}`;
}

/** The strip's frames behind the selected score (the highlighted ones), in the strip's order; none without a score. */
function framesBehindScore(
  stripFrames: readonly ViewerFrame[],
  highlighted: ReadonlySet<number> | undefined,
): ViewerFrame[] {
  return highlighted && highlighted.size > 0 ? stripFrames.filter((frame) => highlighted.has(frame.index)) : [];
}

/** Which score the highlighted frames belong to. */
function HighlightLabelLine({ label }: { label: string }) {
  return (
    <p className="text-xs text-amber-800" data-testid="highlight-label">
      Frames the judge saw for the selected score: <b>{label}</b>
    </p>
  );
}

/**
 * The player and the key-frame strip: each key frame with its cluster (as the judge saw them); clicking a frame
 * seeks, its ⤢ button opens it full size (with previous / next and the frames the judge saw). `highlighted`
 * marks the frames behind the selected score. The strip's header names the key frame at the player's time,
 * whichever way it got there (a click, a score, playing, stepping). With `frameStepping`, `,` / `.` step one
 * frame back / forward (paused), and the time and frame number are shown. A uniform frame set (frames evenly
 * spaced in time, as VBench-2.0 samples them) has no key frames or clusters: its strip says "frame 3 of 64 ·
 * 1.23 s", each frame at its time.
 */
export function VideoFramesViewer({
  videoUrl,
  frames,
  playerRef,
  highlighted,
  highlightLabel,
  fps,
  frameStepping = false,
  uniform,
  player: playerSlot,
}: {
  videoUrl: string;
  frames: ViewerFrame[];
  playerRef?: RefObject<HTMLVideoElement | null>;
  highlighted?: ReadonlySet<number>;
  highlightLabel?: string | null;
  /** The video's frame rate from its import metadata; null when unknown. */
  fps?: number | null;
  frameStepping?: boolean;
  /** Whether the frame set is uniform (its mode); unknown: inferred (no frame belongs to another's cluster). */
  uniform?: boolean;
  /**
   * A player of the host's in place of the plain `<video>` (the span editor: its frame-accurate player and timeline),
   * rendered with its video element on `playerRef` so the strip seeks it.
   */
  player?: ReactNode;
}) {
  const ownRef = useRef<HTMLVideoElement>(null);
  const player = playerRef ?? ownRef;
  const [time, setTime] = useState(0);
  const [lightbox, setLightbox] = useState<number | null>(null);
  const { keyFrames, clusters } = useMemo(() => keyFramesAndClusters(frames), [frames]);
  /** The strip's frames in its order (cluster by cluster): what the lightbox's previous / next walk through. */
  const stripFrames = useMemo(() => clusters.flat(), [clusters]);
  const stepFps = fps && fps > 0 ? fps : FALLBACK_FPS;
  const atTimes = uniform ?? frames.every((frame) => frame.isKeyFrame && frame.cluster === null);

  usePlayerTime(player, setTime);
  useFrameStepping(frameStepping, player, stepFps, setTime);

  // The strip frame on screen: the latest at or before the player's time (a little slack for seeks that land just short).
  const currentFrame = useMemo(() => frameAt(stripFrames, time), [stripFrames, time]);
  const currentFrameIndex = currentFrame?.index ?? null;
  const current = currentKeyFrameOrdinal(currentFrame, clusters, keyFrames.length);
  const describe = (frame: ViewerFrame) => describeFrame(frame, clusters, keyFrames.length, atTimes);
  const seek = (frame: ViewerFrame) => {
    if (player.current) {
      player.current.pause();
      player.current.currentTime = frame.timestampS;
      setTime(frame.timestampS);
    }
  };
  const judgeFrames = framesBehindScore(stripFrames, highlighted);
  const currentKey = current !== null ? keyFrames[current] : undefined;

  return (
    <div className="flex flex-col gap-3">
      {playerSlot ?? <PlainPlayer videoUrl={videoUrl} playerRef={player} />}
      {frameStepping && <FrameStepperLine time={time} fps={fps} stepFps={stepFps} />}
      {highlightLabel && <HighlightLabelLine label={highlightLabel} />}
      {keyFrames.length > 0 && (
        <section aria-label={atTimes ? "Frames" : "Key frames"} className="flex flex-col gap-1">
          <StripHeader
            current={current}
            currentKey={currentKey}
            keyFrameCount={keyFrames.length}
            clusterSize={clusters[current ?? 0]?.length ?? 1}
            atTimes={atTimes}
            uniform={uniform}
          />
          {/* Wraps instead of scrolling sideways, with room for the rings, so no frame or ring is cut off. */}
          <div className="flex flex-wrap gap-3 p-1" data-testid="key-frame-strip">
            {keyFrames.map((key, ordinal) => (
              <ClusterCard
                key={key.id}
                keyFrame={key}
                ordinal={ordinal}
                members={clusters[ordinal] ?? []}
                isCurrent={ordinal === current}
                atTimes={atTimes}
                renderFrame={(frame) => (
                  <StripFrame
                    key={frame.id}
                    frame={frame}
                    lit={highlighted?.has(frame.index) ?? false}
                    dimmed={!!highlighted && highlighted.size > 0 && !(highlighted?.has(frame.index) ?? false)}
                    current={currentFrameIndex === frame.index}
                    atTimes={atTimes}
                    onSeek={() => seek(frame)}
                    onEnlarge={() => setLightbox(stripFrames.indexOf(frame))}
                  />
                )}
              />
            ))}
          </div>
        </section>
      )}
      {lightbox !== null && (
        <FrameLightbox
          frames={stripFrames}
          index={lightbox}
          onIndex={setLightbox}
          onClose={() => setLightbox(null)}
          judgeFrames={judgeFrames}
          judgeLabel={highlightLabel ?? null}
          describe={describe}
        />
      )}
    </div>
  );
}

/** The player with the browser's controls (where no host gives its own). */
function PlainPlayer({ videoUrl, playerRef }: { videoUrl: string; playerRef: RefObject<HTMLVideoElement | null> }) {
  return (
    <video
      ref={playerRef}
      src={videoUrl}
      controls
      preload="metadata"
      className="max-h-[60vh] w-full rounded-lg bg-black"
      data-testid="player"
    />
  );
}

/** Keeps `setTime` on the player's time: it drives the header, the current cluster and the frame counter. */
function usePlayerTime(player: RefObject<HTMLVideoElement | null>, setTime: (time: number) => void) {
  useEffect(() => {
    const video = player.current;
    if (!video) return;
    const update = () => setTime(video.currentTime);
    update();
    video.addEventListener("timeupdate", update);
    video.addEventListener("seeked", update);
    video.addEventListener("seeking", update);
    video.addEventListener("loadedmetadata", update);
    return () => {
      video.removeEventListener("timeupdate", update);
      video.removeEventListener("seeked", update);
      video.removeEventListener("seeking", update);
      video.removeEventListener("loadedmetadata", update);
    };
  }, [player, setTime]);
}

/** With `frameStepping`, `,` / `.` pause the player and step one frame back / forward (not while typing). */
function useFrameStepping(
  frameStepping: boolean,
  player: RefObject<HTMLVideoElement | null>,
  stepFps: number,
  setTime: (time: number) => void,
) {
  useEffect(() => {
    if (!frameStepping) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "," && event.key !== ".") return;
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTypingTarget(event.target))
        return;
      const video = player.current;
      if (!video) return;
      event.preventDefault();
      video.pause();
      const frame = Math.round(video.currentTime * stepFps) + (event.key === "." ? 1 : -1);
      const last = Number.isFinite(video.duration) ? Math.floor(video.duration * stepFps) : Infinity;
      video.currentTime = Math.min(Math.max(frame, 0), last) / stepFps;
      setTime(video.currentTime);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [frameStepping, player, stepFps, setTime]);
}

/** One frame of the strip: click seeks, double-click or ⤢ opens it full size. */
function StripFrame({
  frame,
  lit,
  dimmed,
  current,
  atTimes,
  onSeek,
  onEnlarge,
}: {
  frame: ViewerFrame;
  /** Behind the selected score. */
  lit: boolean;
  /** Another frame is lit and this one is not. */
  dimmed: boolean;
  /** The frame on screen. */
  current: boolean;
  atTimes: boolean;
  onSeek: () => void;
  onEnlarge: () => void;
}) {
  return (
    <div className="group relative">
      <button
        type="button"
        onClick={onSeek}
        onDoubleClick={onEnlarge}
        title={`${frame.timestampS.toFixed(3)} s (double-click: full size)`}
        data-frame-index={frame.index}
        data-highlighted={lit ? "true" : "false"}
        data-current={current ? "true" : "false"}
        data-testid="strip-frame"
        className={`block rounded border-2 ${lit ? "border-amber-500 outline outline-2 outline-amber-400" : frame.isKeyFrame ? "border-indigo-500" : "border-transparent"} ${current ? "ring-2 ring-amber-400" : ""} ${dimmed ? "opacity-50" : ""}`}
      >
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          src={frame.url}
          alt={`${frame.isKeyFrame && !atTimes ? "key frame" : "frame"} at ${frame.timestampS.toFixed(2)} s`}
          className={`max-w-none ${frame.isKeyFrame ? "h-24" : "h-16 opacity-90"}`}
          data-testid={frame.isKeyFrame ? "key-frame" : "cluster-frame"}
          loading="lazy"
        />
      </button>
      <button
        type="button"
        onClick={onEnlarge}
        className="absolute right-1 top-1 rounded bg-black/60 px-1 text-xs leading-4 text-white opacity-70 hover:opacity-100 focus:opacity-100 group-hover:opacity-100"
        aria-label={`Show the frame at ${frame.timestampS.toFixed(2)} s full size`}
        data-testid="enlarge-frame"
      >
        ⤢
      </button>
    </div>
  );
}

/** The player's time and frame number, and the keys that step. */
function FrameStepperLine({ time, fps, stepFps }: { time: number; fps: number | null | undefined; stepFps: number }) {
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 text-xs text-slate-600" data-testid="frame-stepper">
      <span className="font-mono tabular-nums text-slate-900" data-testid="frame-time">
        {time.toFixed(3)} s · frame {Math.round(time * stepFps)}
      </span>
      <span>
        <kbd className="font-mono">,</kbd> / <kbd className="font-mono">.</kbd> one frame back / forward (
        {fps && fps > 0 ? `${Number(fps.toFixed(3))} fps` : `frame rate unknown: steps of 1/${FALLBACK_FPS} s`})
      </span>
    </p>
  );
}

/** Which key frame (or frame, for frames at their times) the player is at. */
function StripHeader({
  current,
  currentKey,
  keyFrameCount,
  clusterSize,
  atTimes,
  uniform,
}: {
  current: number | null;
  currentKey: ViewerFrame | undefined;
  keyFrameCount: number;
  clusterSize: number;
  atTimes: boolean;
  uniform: boolean | undefined;
}) {
  return (
    <p className="text-xs text-slate-600" data-testid="strip-header">
      {currentKey && atTimes ? (
        <>
          At frame <b>{(current ?? 0) + 1}</b> of {keyFrameCount} · {currentKey.timestampS.toFixed(2)} s ·{" "}
          {uniform
            ? "uniform frames, evenly spaced in time (no key frames or clusters)"
            : "frames at their times (no clusters)"}
        </>
      ) : currentKey ? (
        <>
          At key frame <b>{(current ?? 0) + 1}</b> of {keyFrameCount} · {currentKey.timestampS.toFixed(2)} s · cluster
          of {clusterSize}
        </>
      ) : null}
    </p>
  );
}

/** One key frame with its cluster (or, for frames at their times, one frame). */
function ClusterCard({
  keyFrame: key,
  ordinal,
  members,
  isCurrent,
  atTimes,
  renderFrame,
}: {
  keyFrame: ViewerFrame;
  ordinal: number;
  members: ViewerFrame[];
  isCurrent: boolean;
  atTimes: boolean;
  renderFrame: (frame: ViewerFrame) => ReactNode;
}) {
  return (
    <div
      className={`flex flex-col gap-1 rounded-md border bg-white p-2 ${isCurrent ? "border-indigo-400 ring-1 ring-indigo-300" : "border-slate-200"}`}
      data-testid="cluster"
      data-current={isCurrent ? "true" : "false"}
    >
      <span className="text-xs text-slate-500">
        {atTimes
          ? `frame ${ordinal + 1} · ${key.timestampS.toFixed(2)} s`
          : `key frame ${ordinal + 1} · ${key.timestampS.toFixed(2)} s · cluster of ${members.length}`}
      </span>
      <div className="flex flex-wrap gap-1">{members.map(renderFrame)}</div>
    </div>
  );
}

/** The latest frame at or before `time` (a little slack for seeks that land just short); null before the first. */
function frameAt(frames: readonly ViewerFrame[], time: number): ViewerFrame | null {
  let found: ViewerFrame | null = null;
  for (const frame of frames)
    if (frame.timestampS <= time + 0.02 && (!found || frame.timestampS >= found.timestampS)) found = frame;
  return found;
}
