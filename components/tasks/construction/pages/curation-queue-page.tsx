import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { CurationScreen } from "@/components/tasks/construction/curation-screen";
import { ProjectPageHeader } from "@/components/project-page-header";
import { roleCan } from "@/lib/authz/permissions";
import { curationQueueName } from "@/lib/tasks/construction/curation-queues";
import { prisma } from "@/lib/db/prisma";

/** The curation screen of one queue; `?item=` opens that candidate, else the caller's next. Its data comes from the curation API. */
export default async function CurationQueuePage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; queueId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, queueId } = await params;
  const { role, access } = await requirePageProjectAccess(projectId);
  const name = await curationQueueName(prisma, access, queueId);
  if (name === null) notFound();
  const item = (await searchParams).item;
  const startItemId = typeof item === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(item) ? item : null;
  return (
    <div className="flex flex-col gap-4">
      <ProjectPageHeader projectId={projectId} title={`Curate: ${name}`} />
      {roleCan(role, "scores.review") ? (
        <CurationScreen projectId={projectId} queueId={queueId} startItemId={startItemId} />
      ) : (
        <p className="text-sm text-slate-600">
          Your role ({role}) may not curate in this project: the queue&apos;s counts are on the curation page.
        </p>
      )}
    </div>
  );
}
