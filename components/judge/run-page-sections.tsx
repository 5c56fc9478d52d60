// The run page's sections under its title bar: where an ensemble member belongs, where a pairwise run's results are,
// and the run's prompt versions with the links to its items, leaderboard and labelling plan.
import Link from "next/link";
import type { ensembleMembershipOf } from "@/lib/ensembles/ensemble-report";
import type { runPromptVersions } from "@/lib/prompt-versions/prompt-versions";

type Membership = NonNullable<Awaited<ReturnType<typeof ensembleMembershipOf>>>;
type PromptVersion = Awaited<ReturnType<typeof runPromptVersions>>[number];

/** A member run's note: which sample or judge of which ensemble run it is (its scores are combined there). */
export function EnsembleMembershipNote({ projectId, membership }: { projectId: string; membership: Membership }) {
  return (
    <p className="text-sm" data-testid="ensemble-membership">
      {membership.kind === "samples" ? "Sample" : "Judge"} {membership.memberIndex + 1} of{" "}
      <Link href={`/projects/${projectId}/runs/${membership.parentRunId}`} className="text-indigo-700 underline">
        an ensemble run
      </Link>
      : its scores are combined there.
    </p>
  );
}

/**
 * A pairwise run's note: it judges the pairs of a pair set, whose page holds what it found (its verdicts per aspect,
 * position flips and first-position wins, the leaderboard, agreement with people); this page keeps its progress, cost
 * and prompts, and has no video rows or exports of its own.
 */
export function PairwiseRunNote({ projectId, pairSet }: { projectId: string; pairSet: { id: string; name: string } }) {
  return (
    <p className="text-sm" data-testid="pairwise-run-note">
      This run judges the pairs of{" "}
      <Link href={`/projects/${projectId}/pairs/${pairSet.id}`} className="text-indigo-700 underline">
        {pairSet.name}
      </Link>
      , each in both orders. Its verdicts, judge-trust figures (position flips, first-position wins), the leaderboard
      and agreement with people are on the pair set&apos;s pages; its exports are the set&apos;s.
    </p>
  );
}

/**
 * The run's edited prompt versions (or that every template is the shipped one), and the links to its items (a rubric
 * run over items), its leaderboard by model and what to label next.
 */
export function RunPromptsAndLinks({
  projectId,
  runId,
  pipeline,
  promptVersions,
  itemCount,
  hasLeaderboard,
  canPlanLabels,
}: {
  projectId: string;
  runId: string;
  pipeline: string;
  promptVersions: PromptVersion[];
  /** The rubric run's item count; null: not a run over items. */
  itemCount: number | null;
  hasLeaderboard: boolean;
  canPlanLabels: boolean;
}) {
  return (
    <div className="flex flex-wrap items-baseline gap-3 text-sm" data-testid="run-prompt-versions">
      <span className="text-slate-500">Prompts:</span>
      {promptVersions.length === 0 ? (
        <span>every template shipped</span>
      ) : (
        promptVersions.map((v) => (
          <span key={v.id} className="rounded bg-amber-50 px-2 py-0.5" title={v.note}>
            {v.templateId} <code>{v.hash.slice(0, 12)}</code> (edited)
          </span>
        ))
      )}
      <Link href={`/projects/${projectId}/prompts?pipeline=${pipeline}`} className="text-indigo-700 underline">
        prompt versions
      </Link>
      {itemCount !== null && (
        <a href="#items" className="ml-auto text-indigo-700 underline" data-testid="rubric-item-values-link">
          items ({itemCount})
        </a>
      )}
      {hasLeaderboard && (
        <Link
          href={`/projects/${projectId}/runs/${runId}/leaderboard`}
          className="ml-auto text-indigo-700 underline"
          data-testid="leaderboard-link"
        >
          leaderboard by model
        </Link>
      )}
      {canPlanLabels && (
        <Link
          href={`/projects/${projectId}/runs/${runId}/label-next`}
          className={`${hasLeaderboard ? "" : "ml-auto "}text-indigo-700 underline`}
          data-testid="label-next-link"
        >
          what to label next
        </Link>
      )}
    </div>
  );
}
