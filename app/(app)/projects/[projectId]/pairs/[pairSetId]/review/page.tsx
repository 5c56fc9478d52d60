import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { PairReviewScreen } from "@/components/pairwise/review/pair-review-screen";
import { prisma } from "@/lib/db/prisma";
import { pairSetTitle } from "@/lib/pairwise/review/review-access";
import { readProjectSpanLabels } from "@/lib/spans/project-span-labels";

/**
 * Reviewing a pair set side by side. The pairs (and the blind redaction) come from the pair review API; the project's
 * own span labels are what a reviewer marks *where* with on either video.
 */
export default async function PairReviewPage({
  params,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
}) {
  const { projectId, pairSetId } = await params;
  const { actor, access } = await requirePageProjectAccess(projectId, "scores.review");
  const [set, spanLabels] = await Promise.all([
    pairSetTitle(prisma, access, pairSetId),
    readProjectSpanLabels(prisma, access),
  ]);
  if (!set) notFound();
  return (
    <div className="space-y-3">
      <h1 className="text-xl font-semibold">
        Review pairs: {set.name}
        {set.archivedAt && <span className="ml-2 text-sm text-slate-500">(archived)</span>}
      </h1>
      <PairReviewScreen
        projectId={projectId}
        pairSetId={pairSetId}
        marking={{ currentUserId: actor.userId, labels: spanLabels }}
      />
    </div>
  );
}
