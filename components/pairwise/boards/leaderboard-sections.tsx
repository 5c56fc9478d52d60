import Link from "next/link";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { buttonClass } from "@/components/class-names";
import { Card } from "@/components/empty-state";
import type { Ranking } from "@/lib/pairwise/ranking/ranking.types";
import type { PairwiseLeaderboard, RaterBoard } from "@/lib/pairwise/reports/reports.types";
import { decimal, interval } from "./format";
import { HeatMatrix } from "./heat-matrix";
import { RankingTable, ratingDomain } from "./ranking-table";

const boardsBase = (projectId: string, pairSetId: string) => `/projects/${projectId}/pairs/${pairSetId}`;

/** One tab per aspect of the set, and "Overall" pooling them when the set has no aspect of that name. */
export function AspectTabs({
  board,
  projectId,
  raters,
}: {
  board: PairwiseLeaderboard;
  projectId: string;
  raters: string;
}) {
  const ids = board.pairSet.aspects.map((a) => ({ id: a.id, label: a.label }));
  const tabs = ids.some((a) => a.id === "overall") ? ids : [{ id: "overall", label: "Overall (pooled)" }, ...ids];
  return (
    <nav className="flex flex-wrap gap-1 border-b border-slate-200 text-sm" aria-label="Aspects">
      {tabs.map((tab) => {
        const active = tab.id === board.aspect.id;
        return (
          <Link
            key={tab.id}
            href={`${boardsBase(projectId, board.pairSet.id)}/leaderboard?aspect=${tab.id}&raters=${encodeURIComponent(raters)}`}
            aria-current={active ? "page" : undefined}
            className={`rounded-t-md px-3 py-1.5 ${active ? "border border-b-0 border-slate-200 bg-white font-medium" : "text-indigo-700"}`}
            data-testid={`aspect-tab-${tab.id}`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** The raters the first board ranks (a GET form: the choice is the page's URL). */
export function RatersForm({ board, raters }: { board: PairwiseLeaderboard; raters: string }) {
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="raters-form">
      <input type="hidden" name="aspect" value={board.aspect.id} />
      <label className="flex flex-col gap-1">
        Raters
        <select name="raters" defaultValue={raters} className="rounded-md border border-slate-300 px-2 py-1.5">
          <option value="people">People, beside each judge run</option>
          <option value="gold">Gold verdicts, beside each judge run</option>
          <option value="all">All people, judges and label sets pooled</option>
          {board.judgeRuns.map((run) => (
            <option key={run.id} value={`judge:${run.id}`}>
              {run.label}, beside people
            </option>
          ))}
          {board.labelSets.map((set) => (
            <option key={set.id} value={`labelset:${set.id}`}>
              Label set {set.label}, beside people
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Ties
        <select
          name="tieModel"
          defaultValue={board.boards.find((b) => b.status === "ranked")?.ranking.options.tieModel ?? "bradley_terry"}
          className="rounded-md border border-slate-300 px-2 py-1.5"
        >
          <option value="bradley_terry">Half a win to each side (Bradley–Terry)</option>
          <option value="davidson">Their own outcome (Davidson)</option>
        </select>
      </label>
      <button className={buttonClass("secondary")}>Show</button>
    </form>
  );
}

function RobustnessLine({ ranking }: { ranking: Ranking }) {
  const r = ranking.robustness;
  if (!r) return null;
  return (
    <p className="text-xs text-slate-600" data-testid="robustness">
      {r.votesToChangeLeader === null
        ? `Removing up to ${r.searchLimit} votes (greedy search) does not change the leader, ${r.leader}.`
        : `Removing ${r.votesToChangeLeader} votes (found by a greedy search, so at most this many are needed) makes ${r.newLeader} the leader instead of ${r.leader}.`}
    </p>
  );
}

function BoardCard({ board, domain }: { board: RaterBoard; domain: [number, number] }) {
  const counts = [
    board.honeypotVotesLeftOut ? `${board.honeypotVotesLeftOut} honeypot votes left out` : null,
    board.cappedVotesDropped ? `${board.cappedVotesDropped} votes over the per-prompt cap left out` : null,
  ].filter(Boolean);
  return (
    <div data-testid="pairwise-board">
      <Card title={board.label}>
        <div className="flex flex-col gap-2">
          {board.status === "withheld" ? (
            <p role="status" className="text-sm text-slate-700" data-testid="pairwise-board-withheld">
              {board.reason}
            </p>
          ) : (
            <>
              <RankingTable ranking={board.ranking} domain={domain} testId="pairwise-ranking" />
              <p className="text-xs text-slate-500">
                {board.ranking.votes} votes over {board.ranking.prompts} prompts;{" "}
                {board.ranking.options.bootstrapDraws
                  ? `95% intervals from ${board.ranking.options.bootstrapDraws} bootstrap draws of prompts (seed ${board.ranking.options.seed})`
                  : "no bootstrap intervals"}
                ; preliminary under {board.ranking.options.minVotes} votes.
              </p>
              <RobustnessLine ranking={board.ranking} />
            </>
          )}
          {counts.length > 0 && <p className="text-xs text-slate-500">{counts.join("; ")}.</p>}
        </div>
      </Card>
    </div>
  );
}

/** The boards side by side, τ between the first and each other, the first board's matrices and its downloads. */
export function LeaderboardBoards({ board }: { board: PairwiseLeaderboard }) {
  const ranked = board.boards.flatMap((b) => (b.status === "ranked" ? [b.ranking] : []));
  const domain = ratingDomain(ranked);
  const first = board.boards[0]!;
  const api = (format: string, extra = "") =>
    `/api/v1/pair-sets/${board.pairSet.id}/leaderboard?aspect=${board.aspect.id}&raters=${encodeURIComponent(first.raters)}&format=${format}${extra}`;
  const fileName = `pairwise-${board.pairSet.id}-${board.aspect.id}`;
  return (
    <>
      {board.honeypotPairs > 0 && (
        <p className="text-sm text-slate-600" data-testid="honeypots-left-out">
          The set&apos;s {board.honeypotPairs} honeypot pairs are left out of every ranking: they measure raters.
        </p>
      )}
      <div className="grid gap-4 2xl:grid-cols-2">
        {board.boards.map((b) => (
          <BoardCard key={b.raters} board={b} domain={domain} />
        ))}
      </div>
      {board.correlations.length > 0 && (
        <Card title={`Kendall's τ with ${first.label}`}>
          <ul className="flex flex-col gap-1 text-sm" data-testid="kendall-tau">
            {board.correlations.map((c) => (
              <li key={c.raters}>
                {c.label}:{" "}
                {c.correlation && c.correlation.kendallTau !== null
                  ? `τ = ${decimal(c.correlation.kendallTau)} ${interval(c.correlation.lower, c.correlation.upper, (v) => decimal(v))} over ${c.correlation.generators} generators`
                  : "no τ"}
                {c.reason && <span className="text-slate-500"> ({c.reason})</span>}
              </li>
            ))}
          </ul>
        </Card>
      )}
      {first.status === "ranked" && (
        <Card title={`${first.label}: generator against generator`}>
          <div className="flex flex-wrap gap-6">
            <HeatMatrix
              ranking={first.ranking}
              which="winRate"
              title="Win rate of the row against the column (ties half)"
            />
            <HeatMatrix ranking={first.ranking} which="bothBadRate" title="Share of both-bad verdicts" />
          </div>
        </Card>
      )}
      {first.status === "ranked" && (
        <Card title="Downloads">
          <ExportButtons
            downloads={[
              { label: "CSV", href: api("csv"), filename: `${fileName}.csv`, kind: "csv" },
              { label: "LaTeX", href: api("latex"), filename: `${fileName}.tex` },
              { label: "JSON", href: api("json"), filename: `${fileName}.json`, kind: "json" },
            ]}
          />
        </Card>
      )}
    </>
  );
}
