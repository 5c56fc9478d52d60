import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { curationHref } from "@/components/tasks/construction/construction-requests";
import {
  CandidateSetsCard,
  CandidatesCard,
  ClipSetsCard,
  FunnelCard,
  StepAnnotationsCard,
} from "@/components/tasks/construction/construction-sections";
import { ProjectPageHeader } from "@/components/project-page-header";
import {
  type CandidateSetDetail,
  candidateSetDetail,
  constructionOverview,
  constructionQuerySchema,
  qaSetTargetProjects,
} from "@/lib/tasks/construction/construction-overview";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { listEndpoints } from "@/lib/judge/endpoints/endpoints";
import { searchParamsObject } from "@/lib/videos/video-filter";

export default async function ConstructionPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, access } = await requirePageProjectAccess(projectId);
  const raw = searchParamsObject(await searchParams);
  const parsed = constructionQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : constructionQuerySchema.parse({});
  let problem = parsed.success
    ? null
    : `Some parameters were not understood and were ignored: ${parsed.error.issues.map((i) => i.path.join(".") || i.message).join(", ")}.`;
  const overview = await constructionOverview(prisma, access);
  const endpoints = overview.may.startRuns
    ? (await listEndpoints(prisma, access)).map(({ id, name, model }) => ({ id, name, model }))
    : [];
  const chosenSetId = query.set ?? overview.candidateSets.at(-1)?.id;
  let detail: CandidateSetDetail | null = null;
  if (chosenSetId) {
    try {
      detail = await candidateSetDetail(prisma, access, chosenSetId, query);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      problem = error.message;
    }
  }
  const targets = detail ? await qaSetTargetProjects(prisma, actor) : [];
  const keep = (change: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries({
      ...(parsed.success ? raw : {}),
      ...(detail ? { set: detail.set.id } : {}),
      ...change,
    }))
      if (v) search.set(k, v);
    return `/projects/${projectId}/construction?${search}`;
  };

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Q&A construction" />
      <p className="text-sm text-slate-600">
        Build a video Q&amp;A benchmark as seed 004 does: import step annotations, generate candidate questions per
        clip, filter them (blind, hallucination, tricky, unspecific) and turn the survivors into five-option
        multiple-choice questions, then have people{" "}
        {/* A plain link: the curation pages are not prefetched (they come with the curation queues). */}
        <a className="text-indigo-700 underline" href={curationHref(projectId)}>
          curate
        </a>{" "}
        them and export the accepted ones as a question set for{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/qa`}>
          Video QA
        </Link>
        .
      </p>
      {problem && (
        <p
          role="alert"
          className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="construction-problem"
        >
          {problem}
        </p>
      )}
      <StepAnnotationsCard projectId={projectId} overview={overview} />

      <ClipSetsCard projectId={projectId} overview={overview} endpoints={endpoints} />

      <CandidateSetsCard projectId={projectId} overview={overview} endpoints={endpoints} detail={detail} />

      {detail && (
        <>
          <FunnelCard projectId={projectId} overview={overview} detail={detail} targets={targets} />

          <CandidatesCard overview={overview} detail={detail} query={query} keep={keep} />
        </>
      )}
    </div>
  );
}
