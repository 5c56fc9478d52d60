import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { LeaderboardMetricForm, RankedModels } from "@/components/leaderboard/run-leaderboard-sections";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { prisma } from "@/lib/db/prisma";
import { isAppError, isAppErrorCode } from "@/lib/errors";
import { runLeaderboard, type RunLeaderboard } from "@/lib/leaderboard/run-leaderboard";
import { runLeaderboardQuerySchema } from "@/lib/leaderboard/run-leaderboard.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { WithheldError } from "@/lib/visibility/withheld";

/** A run's generator models ranked by one of its metrics, with 95% intervals and every pair's difference (owners, reviewers and viewers). */
export default async function RunLeaderboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, runId } = await params;
  const { access } = await requirePageProjectAccess(projectId);
  const { metric, samples, seed } = searchParamsObject(await searchParams);
  let board: RunLeaderboard | null = null;
  let problem: string | null = null;
  let withheld: WithheldError | null = null;
  try {
    board = await runLeaderboard(prisma, access, runId, runLeaderboardQuerySchema.parse({ metric, samples, seed }));
  } catch (error) {
    if (isAppErrorCode(error, "not_found")) notFound();
    if (error instanceof z.ZodError) problem = error.issues.map((i) => i.message).join(" ");
    else if (error instanceof WithheldError) withheld = error;
    else if (isAppError(error)) problem = error.message;
    else throw error;
  }
  if (board && board.run.projectId !== projectId) notFound();
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Leaderboard</h1>
        {board && <span className="text-sm text-slate-600">{board.run.name}</span>}
        <Link href={`/projects/${projectId}/runs/${runId}`} className="text-sm text-indigo-700 underline">
          back to the run
        </Link>
      </div>
      <p className="max-w-3xl text-sm text-slate-600">
        Each model (the videos&apos; generator) is ranked by its mean over its videos. The 95% intervals are percentile
        bootstrap intervals that resample prompts, each drawn prompt bringing all its videos; a pair&apos;s difference
        is over the prompts both models have, resampled together, with a two-sided bootstrap p-value. Videos without a
        model are left out.
      </p>
      {board && <LeaderboardMetricForm board={board} />}
      {withheld && <WithheldNotice message={withheld.message} withheld={withheld.withheld} />}
      {problem && (
        <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-800" data-testid="leaderboard-error">
          {problem}
        </p>
      )}
      {board &&
        (board.leaderboard.generators.length === 0 ? (
          <EmptyState title="No model to rank">
            {board.videos.withValue === 0
              ? `No video of this run has a value of ${board.metric.label} yet.`
              : `None of the ${board.videos.withValue} videos with a value has a model.`}
          </EmptyState>
        ) : (
          <RankedModels board={board} runId={runId} />
        ))}
    </div>
  );
}
