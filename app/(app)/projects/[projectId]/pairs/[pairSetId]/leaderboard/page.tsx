import { requirePageProjectAccess } from "@/app/_server/actor";
import { AspectTabs, LeaderboardBoards, RatersForm } from "@/components/pairwise/boards/leaderboard-sections";
import { readOrProblem } from "@/components/pairwise/boards/page-problem";
import { PairSetPageFrame } from "@/components/pairwise/boards/pair-set-page-header";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { pairwiseLeaderboard } from "@/lib/pairwise/reports/leaderboard";
import { pairwiseLeaderboardQuerySchema } from "@/lib/pairwise/reports/reports.types";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** A pair set's Bradley–Terry leaderboard per aspect: people and each judge run side by side (every member). */
export default async function PairwiseLeaderboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, pairSetId } = await params;
  const { access, role } = await requirePageProjectAccess(projectId);
  const { aspect, raters, draws, seed, minVotes, tieModel } = searchParamsObject(await searchParams);
  const { data, problem, withheld } = await readOrProblem(async () => {
    const query = pairwiseLeaderboardQuerySchema.parse({ aspect, raters, draws, seed, minVotes, tieModel });
    return { query, board: await pairwiseLeaderboard(prisma, access, pairSetId, query) };
  });
  return (
    <PairSetPageFrame
      projectId={projectId}
      pairSetId={pairSetId}
      name={data?.board.pairSet.name ?? null}
      title="Pairwise leaderboard"
      current="leaderboard"
      owner={roleCan(role, "pairs.manage")}
      intro={
        <>
          Bradley–Terry ratings on the Elo scale (400 points per factor of 10 in odds, the mean at 1000) over every
          verdict of the raters, a tie counting half a win to each side; 95% intervals resample prompts, each drawn
          prompt bringing all its pairs. Rank (UB) is 1 + the number of generators whose interval lies wholly above.
        </>
      }
      problem={problem}
      withheld={withheld}
    >
      {data && (
        <>
          <AspectTabs board={data.board} projectId={projectId} raters={data.query.raters} />
          <RatersForm board={data.board} raters={data.query.raters} />
          <LeaderboardBoards board={data.board} />
        </>
      )}
    </PairSetPageFrame>
  );
}
