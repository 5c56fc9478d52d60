"use client";

import { useRef, useState } from "react";

export interface ViewerFrame {
  id: string;
  index: number;
  timestampS: number;
  isKeyFrame: boolean;
  cluster: number | null;
  url: string;
}

/** The player and the key-frame strip: each key frame with its cluster; clicking a frame seeks. */
export function VideoFramesViewer({ videoUrl, frames }: { videoUrl: string; frames: ViewerFrame[] }) {
  const player = useRef<HTMLVideoElement>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const keyFrames = frames.filter((frame) => frame.isKeyFrame);
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
      {keyFrames.length > 0 && (
        <div className="flex gap-4 overflow-x-auto pb-2" data-testid="key-frame-strip">
          {keyFrames.map((key, ordinal) => {
            const members = frames.filter((frame) => frame.cluster === key.index);
            return (
              <div key={key.id} className="flex shrink-0 flex-col gap-1 rounded-md border border-slate-200 bg-white p-2" data-testid="cluster">
                <span className="text-xs text-slate-500">
                  key frame {ordinal + 1} · {key.timestampS.toFixed(2)} s · cluster of {members.length}
                </span>
                <div className="flex gap-1">
                  {members.map((frame) => (
                    <button
                      key={frame.id}
                      type="button"
                      onClick={() => seek(frame)}
                      title={`${frame.timestampS.toFixed(3)} s`}
                      className={`rounded border-2 ${frame.isKeyFrame ? "border-indigo-500" : "border-transparent"} ${selected === frame.index ? "ring-2 ring-amber-400" : ""}`}
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
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
