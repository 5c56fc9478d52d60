"use client";

/**
 * The span editor's player and timeline, read only, with the tracks its host gives (the span adjudication: a track per
 * reviewer, the judge run's and the gold): a click selects a span and seeks to its start; the ruler scrubs; nothing
 * is marked. The video's frame times come from the same query as the editor's.
 */
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { FramePlayer, type LoopRange, seekToFrame } from "./frame-player";
import { createPlayhead } from "./playhead";
import { frameTimesQuery } from "./span-api";
import { SpanTimeline, type Track } from "./span-timeline";
import { useFrameView } from "./span-workbench";

const NO_TICKS = { keyFrames: [], clusters: [] };

export function SpanReplay({ videoId, tracks }: { videoId: string; tracks: Track[] }) {
  const times = useQuery(frameTimesQuery(videoId));
  const [playhead] = useState(createPlayhead);
  const video = useRef<HTMLVideoElement | null>(null);
  const loop = useRef<LoopRange | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useFrameView(times.data?.timesS.length ?? 0);
  const data = times.data;
  const seek = (frame: number) => video.current && data && seekToFrame(video.current, data, playhead, frame);
  const spanAt = (key: string) => tracks.flatMap((t) => t.spans).find((s) => s.key === key);
  const readOnly = tracks.map((track) => ({ ...track, editableLabel: null }));
  return (
    <div className="flex flex-col gap-2" data-testid="span-replay">
      <FramePlayer
        videoUrl={`/api/v1/videos/${encodeURIComponent(videoId)}/file`}
        times={data ?? null}
        playhead={playhead}
        videoRef={video}
        loop={loop}
        preload="metadata"
      />
      {times.error ? (
        <p role="alert" className="text-sm text-red-700">
          The video&apos;s frame times could not be read: {times.error.message}
        </p>
      ) : !data ? (
        <p className="text-xs text-slate-500">Reading the video&apos;s frame times…</p>
      ) : (
        <SpanTimeline
          times={data}
          view={view}
          setView={setView}
          playhead={playhead}
          tracks={readOnly}
          ticks={NO_TICKS}
          selected={selected}
          inOut={{ inFrame: null, outFrame: null }}
          onSelect={(key) => {
            setSelected(key);
            const span = key ? spanAt(key) : undefined;
            if (span) seek(span.startFrame);
          }}
          onChange={() => {}}
          onCreate={() => {}}
          onSeek={seek}
        />
      )}
    </div>
  );
}
