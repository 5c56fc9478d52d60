import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ReviewScreen } from "@/components/queues/review-screen";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { queueWithRunPipeline } from "@/lib/queues/queue-run";

/** The review screen. Its data (and the blind redaction) comes from the queue item API. */
export default async function QueueItemPage({
  params,
}: {
  params: Promise<{ projectId: string; queueId: string; itemId: string }>;
}) {
  const { projectId, queueId, itemId } = await params;
  const { actor, role, access } = await requirePageProjectAccess(projectId);
  const queue = await queueWithRunPipeline(prisma, access, queueId);
  if (!queue) notFound();
  if (!roleCan(role, "scores.review"))
    return <p className="text-sm text-slate-600">Your role ({role}) may not review in this project.</p>;
  // The run's pipeline names the task whose declaration labels every code on the screen.
  return (
    <ReviewScreen
      projectId={projectId}
      queueId={queueId}
      itemId={itemId}
      pipeline={queue.pipeline}
      userId={actor.userId}
    />
  );
}
