import { pythonFixed2 } from "@/lib/frames/vbench-uniform";
import { framesAt, type StripFrame } from "@/lib/tasks/vbench2/page-data";
import type { DimensionAgreement } from "@/lib/tasks/vbench2/results";
import type { VisibleVideoResult } from "@/lib/tasks/vbench2/visible-results";

export function Percent({ value }: { value: number | null }) {
  return <>{value === null ? "—" : `${(value * 100).toFixed(2)}%`}</>;
}

export function AgreementCell({ agreement, unit }: { agreement: DimensionAgreement | null; unit: string }) {
  if (!agreement || agreement.n === 0) return <td className="px-2 py-1 text-slate-500">—</td>;
  return (
    <td
      className="px-2 py-1 tabular-nums"
      title={`Cohen's κ ${agreement.kappa === null ? "undefined" : agreement.kappa.toFixed(2)}`}
    >
      <Percent value={agreement.agreement} /> of {agreement.n} {agreement.n === 1 ? unit.replace(/s$/, "") : unit}
      {agreement.kappa !== null && <span className="text-slate-500"> · κ {agreement.kappa.toFixed(2)}</span>}
    </td>
  );
}

export function VideoValueCell({ video }: { video: VisibleVideoResult }) {
  if (video.blind)
    return <span className="text-xs text-slate-500">judge&apos;s values withheld until you review this video</span>;
  const judge =
    video.excludedReason !== null ? (
      <span title={video.excludedReason}>excluded: {video.excludedReason}</span>
    ) : video.value === null ? (
      "unknown"
    ) : (
      video.value.toFixed(3)
    );
  return (
    <span className="text-xs text-slate-600" data-testid="vbench2-video-value">
      judge {judge}
      {(video.humanValue !== null || video.humanExcludedReason !== null) && (
        <> · people {video.humanExcludedReason !== null ? "excluded" : video.humanValue!.toFixed(3)}</>
      )}
      {video.vbenchValue !== null && <> · VBench {video.vbenchValue}</>}
    </span>
  );
}

const yesNo = (value: boolean | null) => (value === null ? "—" : value ? "yes" : "no");

/** A time as the judge's prompt wrote it (Python's "%.2f", ties to even: 8.625 is "8.62"). */
const promptTime = (seconds: number) => `${pythonFixed2(seconds)}s`;

/**
 * A video's questions, each with the judge's answer (unless blind) and, beside it, the frames it was asked with:
 * thumbnails from the run's frame set (`strip`) and their times as the prompt gave them.
 */
export function QuestionList({
  questions,
  blind,
  strip = [],
}: {
  questions: VisibleVideoResult["questions"];
  blind: boolean;
  strip?: readonly StripFrame[];
}) {
  return (
    <ol className="ml-5 flex list-decimal flex-col gap-2 text-xs text-slate-700">
      {questions.map((q, k) => (
        <li key={k} data-testid="vbench2-question">
          <div className="flex flex-wrap items-start gap-3">
            <div className="min-w-64 flex-1">
              <span>{q.question}</span>{" "}
              {!blind && (
                <span className="text-slate-500">
                  — judge:{" "}
                  <strong title={q.answer ?? q.notAsked ?? "no answer"}>
                    {q.notAsked ? "not asked" : yesNo(q.yes)}
                  </strong>
                  {q.human !== null && <> · people: {yesNo(q.human)}</>}
                </span>
              )}
            </div>
            {q.frames.length > 0 && <FrameStrip times={q.frames} frames={framesAt(strip, q.frames)} />}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The frames a question was asked with: how many, from when to when, and their thumbnails (lazy: a strip holds up to 64). */
function FrameStrip({ times, frames }: { times: readonly number[]; frames: readonly StripFrame[] }) {
  return (
    <figure className="flex max-w-xl flex-col gap-1" data-testid="vbench2-question-frames">
      <figcaption className="text-slate-500" title={times.map(promptTime).join(", ")}>
        {times.length} frame{times.length === 1 ? "" : "s"}, {promptTime(times[0]!)}–
        {promptTime(times[times.length - 1]!)}
      </figcaption>
      {frames.length > 0 && (
        <div className="flex gap-0.5 overflow-x-auto pb-1">
          {frames.map((frame, k) => (
            // eslint-disable-next-line @next/next/no-img-element -- a frame served by the API (session-checked), not a static asset
            <img
              // By place: a clip shorter than 64 frames repeats some (VBench's linspace indices), so an id can come twice.
              key={k}
              src={`/api/v1/frames/${frame.id}/image`}
              alt={`frame at ${promptTime(frame.seconds)}`}
              title={promptTime(frame.seconds)}
              loading="lazy"
              className="h-10 w-auto shrink-0 rounded-sm border border-slate-200"
            />
          ))}
        </div>
      )}
    </figure>
  );
}
