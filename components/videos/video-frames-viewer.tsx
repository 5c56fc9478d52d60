"use client";

import { useRef, useState, type RefObject } from "react";
import { keyFramesAndClusters } from "@/lib/judge/frame-scopes";

export interface ViewerFrame {
  id: string;
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
  url: string;
}

/**
 * The player and the key-frame strip: each key frame with its cluster (as the judge saw them);
 * clicking a frame seeks. `highlighted` marks the frames behind the selected score.
 */
export function VideoFramesViewer({
  videoUrl,
  frames,
  playerRef,
  highlighted,
  highlightLabel,
}: {
  videoUrl: string;
  frames: ViewerFrame[];
  playerRef?: RefObject<HTMLVideoElement | null>;
  highlighted?: ReadonlySet<number>;
  highlightLabel?: string | null;
}) {
  const ownRef = useRef<HTMLVideoElement>(null);
  const player = playerRef ?? ownRef;
  const [selected, setSelected] = useState<number | null>(null);
  const { keyFrames, clusters } = keyFramesAndClusters(frames);
  const seek = (frame: ViewerFrame) => {
    setSelected(frame.index);
    if (player.current) {
      player.current.pause();
      player.current.currentTime = frame.timestampS;
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <video ref={player} src={videoUrl} controls preload="metadata" className="max-h-[60vh] w-full rounded-lg bg-black" data-testid="player" />
      {highlightLabel && (
        <p className="text-xs text-amber-800" data-testid="highlight-label">
          Frames the judge saw for the selected score: <b>{highlightLabel}</b>
        </p>
      )}
      {keyFrames.length > 0 && (
        <div className="flex gap-4 overflow-x-auto pb-2" data-testid="key-frame-strip">
          {keyFrames.map((key, ordinal) => {
            const members = clusters[ordinal] ?? [];
            return (
              <div key={key.id} className="flex shrink-0 flex-col gap-1 rounded-md border border-slate-200 bg-white p-2" data-testid="cluster">
                <span className="text-xs text-slate-500">
                  key frame {ordinal + 1} · {key.timestampS.toFixed(2)} s · cluster of {members.length}
                </span>
                <div className="flex gap-1">
                  {members.map((frame) => {
                    const lit = highlighted?.has(frame.index) ?? false;
                    return (
                      <button
                        key={frame.id}
                        type="button"
                        onClick={() => seek(frame)}
                        title={`${frame.timestampS.toFixed(3)} s`}
                        data-frame-index={frame.index}
                        data-highlighted={lit ? "true" : "false"}
                        data-testid="strip-frame"
                        className={`rounded border-2 ${lit ? "border-amber-500 outline outline-2 outline-amber-400" : frame.isKeyFrame ? "border-indigo-500" : "border-transparent"} ${selected === frame.index ? "ring-2 ring-amber-400" : ""} ${highlighted && highlighted.size > 0 && !lit ? "opacity-50" : ""}`}
                      >
                        {/* eslint-disable-next-line @next/next/no-img-element */}
                        <img
                          src={frame.url}
                          alt={`${frame.isKeyFrame ? "key frame" : "frame"} at ${frame.timestampS.toFixed(2)} s`}
                          className={frame.isKeyFrame ? "h-24" : "h-16 opacity-90"}
                          data-testid={frame.isKeyFrame ? "key-frame" : "cluster-frame"}
                          loading="lazy"
                        />
                      </button>
                    );
                  })}
                </div>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
