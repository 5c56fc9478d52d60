import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { NewQueueForm } from "@/components/queues/new-queue-form";
import { prisma } from "@/lib/db/prisma";
import { itemQueueTypeForms } from "@/lib/queues/queue-form-choices";
import { listRuns } from "@/lib/judge/runs/runs";
import { searchParamsObject, videoFilterSchema, videoSorts } from "@/lib/videos/video-filter";
import { runNameOfRow } from "@/lib/run-records/run-name";
import { runPickerLabels } from "@/lib/judge/runs/run-option-labels";
import { ensembleSettingsOf } from "@/lib/judge/runs/ensemble-settings";

/** Owners make a queue from the video list's filter (carried in the query string). */
export default async function NewQueuePage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { catalogue, access } = await requirePageProjectAccess(projectId, "queues.manage");
  const raw = searchParamsObject(await searchParams);
  const parsed = videoFilterSchema(catalogue).safeParse(raw);
  const filter = parsed.success ? parsed.data : {};
  const sort = videoSorts(catalogue).find((s) => s === raw.sort) ?? "path";
  const dir = raw.dir === "desc" ? "desc" : "asc";
  const itemScopes = await itemQueueTypeForms(prisma, access, catalogue);
  const runs = await listRuns(prisma, access);
  // The picker tells runs apart by task and by what differs between them (lib/judge/runs/run-option-labels).
  const runLabels = await runPickerLabels(
    prisma,
    projectId,
    runs.map((r) => r.id),
  );
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="New review queue" />
      {!parsed.success && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-800">
          The filter in the link was not valid (
          {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}); starting from no filter.
        </p>
      )}
      {runs.length === 0 ? (
        <EmptyState title="No judge run yet">A queue reviews a judge run&apos;s results: run a judge first.</EmptyState>
      ) : (
        <NewQueueForm
          projectId={projectId}
          filter={filter}
          sort={sort}
          dir={dir}
          itemScopes={itemScopes}
          runs={runs.map((r) => ({
            id: r.id,
            pipeline: r.pipeline,
            label: `${runLabels.get(r.id) ?? runNameOfRow(r, catalogue)} · ${r.status}`,
            ensemble: ensembleSettingsOf(r.ensemble)?.kind ?? null,
          }))}
        />
      )}
    </div>
  );
}
