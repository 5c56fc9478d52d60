import { sampledInstants, type CallSaw, type SawClip, type SawFrame } from "@/lib/judge/calls/call-record";
import { INPUT_MODE_DESCRIPTIONS } from "@/lib/judge/input-modes";
import { formatSeconds } from "@/lib/format/numbers";

/** What one call of the inspector showed the judge, with the bytes it sent and the usage its endpoint reported. */
export interface CallSawViewProps {
  saw: CallSaw | null;
  bytesSent: number;
  cached: boolean;
  usage: { promptTokens: number; completionTokens: number; usageKnown: boolean; answered: boolean };
  /** How many of the frames, from the first, went as one video part (the call record's `sent.videoFrames`). */
  videoFrames?: number;
}

/**
 * What the judge saw on one call: the input mode, the frames as a strip of thumbnails with their times (in the order
 * the request carried them, those of one video part marked as such), or the clip's duration as a bar with the
 * instants the endpoint was asked to sample; then the bytes sent and the usage the endpoint reported.
 */
export function CallSawView({ saw, bytesSent, cached, usage, videoFrames = 0 }: CallSawViewProps) {
  if (!saw)
    return (
      <p className="mt-1 text-xs text-slate-500" data-testid="call-saw-missing">
        This call was made before FrameJury recorded what each call showed.
      </p>
    );
  return (
    <div className="mt-1 flex flex-col gap-1" data-testid="call-saw" data-mode={saw.mode}>
      <p className="text-xs text-slate-600">
        <span className="font-medium" title={INPUT_MODE_DESCRIPTIONS[saw.mode]}>
          {saw.mode}
        </span>
        {" · "}
        <span data-testid="call-bytes-sent">
          {cached ? "answered from the cache: nothing sent" : `${formatByteCount(bytesSent)} sent`}
        </span>
        {" · "}
        <span data-testid="call-usage">{usageText(cached, usage)}</span>
      </p>
      {(saw.clips ?? (saw.clip ? [saw.clip] : [])).map((clip, i) => (
        <ClipBar key={i} clip={clip} name={saw.clips ? `Video ${String.fromCharCode(65 + i)}'s clip` : "The clip"} />
      ))}
      {saw.frames.length > 0 && <FrameStrip frames={saw.frames} videoFrames={videoFrames} />}
    </div>
  );
}

function usageText(cached: boolean, usage: CallSawViewProps["usage"]): string {
  if (cached) return "no usage (cached)";
  if (!usage.answered) return "no usage reported yet";
  if (!usage.usageKnown) return "the endpoint reported no usage";
  return `reported usage ${usage.promptTokens} prompt + ${usage.completionTokens} answer tokens`;
}

/** The frames in the order sent; the first `videoFrames` of them went as one video part, the rest as images. */
function FrameStrip({ frames, videoFrames }: { frames: readonly SawFrame[]; videoFrames: number }) {
  return (
    <ol className="flex flex-wrap gap-1" aria-label="Frames the judge saw" data-testid="call-frame-strip">
      {frames.map((frame, i) => (
        <li
          key={`${frame.frameId}-${i}`}
          className={`flex flex-col items-center rounded p-0.5 ${i < videoFrames ? "bg-indigo-100" : ""}`}
          data-testid="call-frame"
          data-part={i < videoFrames ? "video" : "image"}
        >
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={`/api/v1/frames/${frame.frameId}/image`}
            alt={`Frame ${frame.index} at ${formatSeconds(frame.timestampS)}, sent to the judge`}
            className="h-16 rounded"
            loading="lazy"
          />
          <span className="text-[10px] text-slate-600" data-testid="call-frame-time">
            {formatSeconds(frame.timestampS)}
          </span>
          <span className="text-[10px] text-slate-600">
            {frame.videoFrame !== null && frame.videoFrame !== undefined
              ? `frame ${frame.videoFrame}`
              : `#${frame.index}`}
            {i < videoFrames ? " · video" : ""}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The clip's length as a bar, with a mark at each instant the endpoint was asked to sample. */
function ClipBar({ clip, name }: { clip: SawClip; name: string }) {
  const instants = sampledInstants(clip);
  const sampling =
    "numFrames" in clip.sampling
      ? `${clip.sampling.numFrames} frames asked`
      : `${clip.sampling.fps} frames a second asked`;
  return (
    <div data-testid="call-clip">
      <p className="text-xs text-slate-600">
        {name} ({formatSeconds(clip.durationS)}, sha256 {clip.sha256.slice(0, 12)}…): {sampling}
      </p>
      <div
        className="relative mt-1 h-4 w-full max-w-xl rounded bg-slate-200"
        role="img"
        aria-label={`Clip of ${formatSeconds(clip.durationS)}; sampled at ${instants.length} instants`}
      >
        {instants.map((t, i) => (
          <span
            key={i}
            className="absolute top-0 h-4 w-px bg-indigo-600"
            style={{ left: `${clip.durationS > 0 ? (100 * t) / clip.durationS : 0}%` }}
            title={formatSeconds(t)}
            data-testid="call-clip-instant"
          />
        ))}
      </div>
    </div>
  );
}

function formatByteCount(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
