import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { AdjudicationScreen } from "@/components/adjudication/adjudication-screen";
import { buttonClass } from "@/components/class-names";
import { EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { adjudicationQuerySchema, adjudicationQueue } from "@/lib/adjudication/adjudication";
import { prisma } from "@/lib/db/prisma";
import { findProjectRun } from "@/lib/judge/runs/run-overview";
import { listRuns } from "@/lib/judge/runs/runs";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { runNameOfRow } from "@/lib/run-records/run-name";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/** The adjudication queue: targets reviewers disagree on, for owners to settle with a gold value. */
export default async function AdjudicationPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, catalogue, access } = await requirePageProjectAccess(projectId, "gold.set");
  const raw = searchParamsObject(await searchParams);
  const parsed = adjudicationQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : adjudicationQuerySchema.parse({});
  const runs = await listRuns(prisma, access);
  const known = !query.runId || (await findProjectRun(prisma, access, query.runId)) !== null;
  const { total, settled, items } = known
    ? await adjudicationQueue(prisma, actor, projectId, query, catalogue)
    : { total: 0, settled: 0, items: [] };
  const tasks = catalogue.tasks;
  const targets = [
    ...new Map(
      tasks.flatMap((t) => [...t.targets, ...t.metrics.filter((m) => m.reviewed)]).map((t) => [t.id, t.label]),
    ).entries(),
  ];
  return (
    <div className="flex flex-col gap-4">
      <ProjectPageHeader projectId={projectId} title="Adjudication" />
      <p className="text-sm text-slate-600">
        Targets where reviewers disagree: a tie on a nominal target, or values apart by at least the target&apos;s
        disagreement gap. Set the gold value with a note; the{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/agreement?truth=gold`}>
          agreement report
        </Link>{" "}
        can then measure the judge against gold. Where reviewers marked spans, the{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/adjudication/spans`}>
          adjudication of spans
        </Link>{" "}
        sets gold spans.
      </p>
      <form className="flex flex-wrap items-end gap-3 text-sm" method="get">
        <label className="flex flex-col gap-1">
          Task
          <select name="task" defaultValue={query.task ?? ""} className={input}>
            <option value="">any</option>
            {tasks.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Target
          <select name="target" defaultValue={query.target ?? ""} className={input}>
            <option value="">any</option>
            {targets.map(([id, label]) => (
              <option key={id} value={id}>
                {id} · {label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Run
          <select name="runId" defaultValue={query.runId ?? ""} className={input}>
            <option value="">any (judge value the reviewers saw)</option>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                {runNameOfRow(r, catalogue)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Show
          <select name="state" defaultValue={query.state} className={input}>
            <option value="all">all disputed</option>
            <option value="open">without gold</option>
            <option value="settled">with gold</option>
          </select>
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Filter
        </button>
      </form>
      <p className="text-sm" data-testid="adjudication-summary">
        {total} disputed target{total === 1 ? "" : "s"}, {settled} with gold
        {items.length < total && query.state === "all" ? ` (showing ${items.length})` : ""}.
      </p>
      {items.length === 0 ? (
        <EmptyState title="Nothing to adjudicate">No target matching the filter has reviewers who disagree.</EmptyState>
      ) : (
        <AdjudicationScreen projectId={projectId} initialItems={items} />
      )}
    </div>
  );
}
