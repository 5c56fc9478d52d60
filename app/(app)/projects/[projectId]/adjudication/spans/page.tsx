import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { SpanAdjudicationScreen } from "@/components/adjudication/span-adjudication-screen";
import { buttonClass } from "@/components/class-names";
import { EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { spanAdjudication, spanAdjudicationQuerySchema } from "@/lib/adjudication/span-adjudication";
import { prisma } from "@/lib/db/prisma";
import { searchParamsObject } from "@/lib/videos/video-filter";

const select = "rounded-md border border-slate-300 px-2 py-1.5";

/** The adjudication of spans: each video's reviewers' spans per label, most disputed first, for owners to set gold spans. */
export default async function SpanAdjudicationPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, catalogue } = await requirePageProjectAccess(projectId, "gold.set");
  const parsed = spanAdjudicationQuerySchema.safeParse(searchParamsObject(await searchParams));
  const query = parsed.success ? parsed.data : spanAdjudicationQuerySchema.parse({});
  const data = await spanAdjudication(prisma, actor, projectId, query, catalogue);
  const queryString = new URLSearchParams({
    ...(query.task ? { task: query.task } : {}),
    state: query.state,
    limit: String(query.limit),
  }).toString();
  return (
    <div className="flex flex-col gap-4">
      <ProjectPageHeader projectId={projectId} title="Adjudication of spans" />
      <p className="text-sm text-slate-600">
        Where reviewers marked spans: each label&apos;s spans by reviewer, most disputed first (1 − the lowest frame
        overlap between two reviewers). Accept a reviewer&apos;s span as gold, or draw one; gold spans are versioned and
        keep their history. The{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/adjudication`}>
          adjudication of values
        </Link>{" "}
        settles the scores.
      </p>
      <form className="flex flex-wrap items-end gap-3 text-sm" method="get">
        <label className="flex flex-col gap-1">
          Task
          <select name="task" defaultValue={query.task ?? ""} className={select}>
            <option value="">any</option>
            {catalogue.tasks.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
            <option value="project">the project&apos;s own labels</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Show
          <select name="state" defaultValue={query.state} className={select}>
            <option value="all">all</option>
            <option value="open">without gold spans</option>
            <option value="settled">with gold spans</option>
          </select>
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Filter
        </button>
      </form>
      {data.items.length === 0 ? (
        <EmptyState title="No spans to adjudicate">No video matching the filter has reviewers&apos; spans.</EmptyState>
      ) : (
        <SpanAdjudicationScreen projectId={projectId} query={queryString} initial={data} />
      )}
    </div>
  );
}
