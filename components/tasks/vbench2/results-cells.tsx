import type { DimensionAgreement } from "@/lib/tasks/vbench2/results";
import type { VisibleVideoResult } from "@/lib/tasks/vbench2/visible-results";

export function Percent({ value }: { value: number | null }) {
  return <>{value === null ? "—" : `${(value * 100).toFixed(2)}%`}</>;
}

export function AgreementCell({ agreement, unit }: { agreement: DimensionAgreement | null; unit: string }) {
  if (!agreement || agreement.n === 0) return <td className="px-2 py-1 text-slate-500">—</td>;
  return (
    <td className="px-2 py-1 tabular-nums" title={`Cohen's κ ${agreement.kappa === null ? "undefined" : agreement.kappa.toFixed(2)}`}>
      <Percent value={agreement.agreement} /> of {agreement.n} {agreement.n === 1 ? unit.replace(/s$/, "") : unit}
      {agreement.kappa !== null && <span className="text-slate-500"> · κ {agreement.kappa.toFixed(2)}</span>}
    </td>
  );
}

export function VideoValueCell({ video }: { video: VisibleVideoResult }) {
  if (video.blind) return <span className="text-xs text-slate-500">judge&apos;s values withheld until you review this video</span>;
  const judge = video.excludedReason !== null ? <span title={video.excludedReason}>excluded: {video.excludedReason}</span> : video.value === null ? "unknown" : video.value.toFixed(3);
  return (
    <span className="text-xs text-slate-600" data-testid="vbench2-video-value">
      judge {judge}
      {(video.humanValue !== null || video.humanExcludedReason !== null) && <> · people {video.humanExcludedReason !== null ? "excluded" : video.humanValue!.toFixed(3)}</>}
      {video.vbenchValue !== null && <> · VBench {video.vbenchValue}</>}
    </span>
  );
}

const yesNo = (value: boolean | null) => (value === null ? "—" : value ? "yes" : "no");

export function QuestionList({ questions, blind }: { questions: VisibleVideoResult["questions"]; blind: boolean }) {
  return (
    <ol className="ml-5 list-decimal text-xs text-slate-700">
      {questions.map((q, k) => (
        <li key={k}>
          <span>{q.question}</span>{" "}
          {!blind && (
            <span className="text-slate-500">
              — judge: <strong title={q.answer ?? q.notAsked ?? "no answer"}>{q.notAsked ? "not asked" : yesNo(q.yes)}</strong>
              {q.human !== null && <> · people: {yesNo(q.human)}</>}
            </span>
          )}{" "}
          {q.frames.length > 0 && (
            <span className="text-slate-500" title={q.frames.map((t) => `${t.toFixed(2)}s`).join(", ")}>
              ({q.frames.length} frame{q.frames.length === 1 ? "" : "s"}, {q.frames[0]!.toFixed(2)}–{q.frames[q.frames.length - 1]!.toFixed(2)} s)
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
