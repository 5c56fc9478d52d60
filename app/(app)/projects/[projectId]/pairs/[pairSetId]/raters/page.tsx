import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { readOrProblem } from "@/components/pairwise/boards/page-problem";
import { PairSetPageFrame } from "@/components/pairwise/boards/pair-set-page-header";
import { RaterTable } from "@/components/pairwise/boards/rater-table";
import { prisma } from "@/lib/db/prisma";
import { raterBoard } from "@/lib/pairwise/reports/raters";

/** Each rater's quality on a pair set (owners: others get the 403 page). */
export default async function PairwiseRatersPage({
  params,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
}) {
  const { projectId, pairSetId } = await params;
  const { access } = await requirePageProjectAccess(projectId, "pairs.manage");
  const { data: board, problem } = await readOrProblem(() => raterBoard(prisma, access, pairSetId));
  return (
    <PairSetPageFrame
      projectId={projectId}
      pairSetId={pairSetId}
      name={board?.pairSet.name ?? null}
      title="Raters"
      current="raters"
      owner
      intro={
        <>
          Honeypot pairs set a video against a broken copy of itself (the answer is the original); gold verdicts are the
          adjudicated ones. A rater who chooses the left video far from half the time, answers much faster than others,
          or always gives the same verdict is worth a look before their votes are trusted.
        </>
      }
      problem={problem}
    >
      {board &&
        (board.raters.length === 0 ? (
          <EmptyState title="No verdict yet">No one has given a verdict on this set.</EmptyState>
        ) : (
          <RaterTable raters={board.raters} />
        ))}
    </PairSetPageFrame>
  );
}
