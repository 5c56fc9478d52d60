import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { PairReviewScreen } from "@/components/pairwise/review/pair-review-screen";
import { prisma } from "@/lib/db/prisma";
import { pairSetTitle } from "@/lib/pairwise/review/review-access";

/** Reviewing a pair set side by side. The pairs (and the blind redaction) come from the pair review API. */
export default async function PairReviewPage({
  params,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
}) {
  const { projectId, pairSetId } = await params;
  const { access } = await requirePageProjectAccess(projectId, "scores.review");
  const set = await pairSetTitle(prisma, access, pairSetId);
  if (!set) notFound();
  return (
    <div className="space-y-3">
      <h1 className="text-xl font-semibold">
        Review pairs: {set.name}
        {set.archivedAt && <span className="ml-2 text-sm text-slate-500">(archived)</span>}
      </h1>
      <PairReviewScreen projectId={projectId} pairSetId={pairSetId} />
    </div>
  );
}
