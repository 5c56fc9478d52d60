import Link from "next/link";
import { buttonClass } from "@/components/class-names";
import { Card } from "@/components/empty-state";
import type { PairSetOverview } from "@/lib/pairwise/reports/pair-set-overview";
import { percent } from "./format";
import { JudgePairsForm } from "./judge-pairs-form";
import { QueueNextButton } from "./queue-next-button";

/** The set's aspects with their guidelines and people's verdicts on each, the pairs done, and the way to review. */
export function PairSetProgress({
  overview,
  projectId,
  mayReview,
}: {
  overview: PairSetOverview;
  projectId: string;
  /** The reader may review (viewers may not: no link they could not open). */
  mayReview: boolean;
}) {
  const set = overview.pairSet;
  return (
    <Card
      title="Progress"
      actions={
        mayReview && (
          <Link
            href={`/projects/${projectId}/pairs/${set.id}/review`}
            className={buttonClass()}
            data-testid="review-link"
          >
            Review
          </Link>
        )
      }
    >
      <div className="flex flex-col gap-2 text-sm" data-testid="pair-set-progress">
        <p>
          {overview.done} of {overview.pairs} pairs done ({set.reviewersPerPair} reviewer
          {set.reviewersPerPair === 1 ? "" : "s"} each)
          {overview.honeypotPairs ? `, ${overview.honeypotPairs} honeypots among them` : ""};{" "}
          {set.blind ? "blind: reviewers see no generator names" : "not blind"}
          {set.votesPerPromptCap === null ? "" : `; at most ${set.votesPerPromptCap} votes per prompt count`}.
        </p>
        <ul className="flex flex-col gap-1">
          {overview.progress.map((aspect) => (
            <li key={aspect.aspect}>
              <span className="font-medium">{aspect.label}</span>: {aspect.verdicts} verdicts by people
              <span className="block text-xs text-slate-500">
                {set.aspects.find((a) => a.id === aspect.aspect)?.guideline}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}

/** The set's judge runs with their judge-trust figures per aspect: position flips and first-position wins. */
export function PairSetRuns({ overview }: { overview: PairSetOverview }) {
  if (overview.runs.length === 0) return <p className="text-sm text-slate-600">No judge run of this set yet.</p>;
  return (
    <table className="min-w-full text-sm" data-testid="pair-set-runs">
      <thead className="text-left text-xs text-slate-600">
        <tr>
          <th className="px-2 py-1">Run</th>
          <th className="px-2 py-1">Status</th>
          <th className="px-2 py-1">Aspect</th>
          <th className="px-2 py-1 text-right">Pairs in both orders</th>
          <th
            className="px-2 py-1 text-right"
            title="Answers that hold no verdict: a pair not judged (a video that cannot be shown, e.g. one without frames) or an answer without a verdict label"
          >
            Without a verdict
          </th>
          <th className="px-2 py-1 text-right" title="The share of pairs whose two orders chose opposite videos">
            Flip rate
          </th>
          <th
            className="px-2 py-1 text-right"
            title="Of the answers that chose a video, the share that chose the first shown"
          >
            First-position wins
          </th>
        </tr>
      </thead>
      <tbody>
        {overview.runs.flatMap((run) =>
          (run.trust.length ? run.trust : [null]).map((row, i) => (
            <tr
              key={`${run.id}|${row?.aspect ?? ""}`}
              className="border-t border-slate-100"
              data-testid="pair-set-run-row"
            >
              <td className="px-2 py-1">{i === 0 ? run.label : ""}</td>
              <td className="px-2 py-1">{i === 0 ? run.status : ""}</td>
              <td className="px-2 py-1">{row?.aspect ?? "no answer yet"}</td>
              <td className="px-2 py-1 text-right tabular-nums">{row?.pairsBothOrders ?? "–"}</td>
              <td
                className={`px-2 py-1 text-right tabular-nums ${row?.answersWithoutVerdict ? "text-amber-800" : ""}`}
                data-testid="answers-without-verdict"
              >
                {row ? `${row.answersWithoutVerdict} of ${row.answers}` : "–"}
              </td>
              <td className="px-2 py-1 text-right tabular-nums">{row ? percent(row.positionFlipRate) : "–"}</td>
              <td className="px-2 py-1 text-right tabular-nums">{row ? percent(row.firstPositionWinShare) : "–"}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

/** The active plan's next pairs, and (owners) a judge run over them or the way to review them. */
export function NextPairs({
  overview,
  projectId,
  endpoints,
  owner,
}: {
  overview: PairSetOverview;
  projectId: string;
  endpoints: { id: string; name: string; model: string }[];
  owner: boolean;
}) {
  const { plan } = overview;
  if (plan.pairs.length === 0) return <p className="text-sm text-slate-600">No pair left to plan.</p>;
  const ids = plan.pairs.flatMap((pair) => (pair.pairId ? [pair.pairId] : []));
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="next-pairs">
      <p className="text-slate-600">
        The {plan.pairs.length} pairs that most narrow the ranking&apos;s uncertainty next (
        {plan.rule === "variance_reduction" ? "variance reduction, as LMArena samples" : "information gain"}).
      </p>
      <ol className="list-decimal pl-5">
        {plan.pairs.map((pair) => (
          <li key={pair.pairId ?? `${pair.prompt}|${pair.generatorA}|${pair.generatorB}`}>
            {pair.generatorA} vs {pair.generatorB} <span className="text-slate-500">· {pair.prompt}</span>
          </li>
        ))}
      </ol>
      {owner && (
        <>
          <QueueNextButton projectId={projectId} pairSetId={overview.pairSet.id} pairIds={ids} />
          <JudgePairsForm
            pairSetId={overview.pairSet.id}
            endpoints={endpoints}
            pairIds={ids}
            label={`Judge the next ${ids.length}`}
          />
        </>
      )}
    </div>
  );
}
