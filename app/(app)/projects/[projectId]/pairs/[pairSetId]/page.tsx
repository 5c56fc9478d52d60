import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { JudgePairsForm } from "@/components/pairwise/boards/judge-pairs-form";
import { readOrProblem } from "@/components/pairwise/boards/page-problem";
import { PairSetPageFrame } from "@/components/pairwise/boards/pair-set-page-header";
import { NextPairs, PairSetProgress, PairSetRuns } from "@/components/pairwise/boards/pair-set-sections";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { listEndpoints } from "@/lib/judge/endpoints/endpoints";
import { pairSetOverview } from "@/lib/pairwise/reports/pair-set-overview";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { z } from "zod";

const nextSchema = z.coerce.number().int().min(1).max(500).catch(20);

/** A pair set: its aspects and progress, the way to review, its judge runs and their trust, and the next pairs. */
export default async function PairSetPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, pairSetId } = await params;
  const { access, role } = await requirePageProjectAccess(projectId);
  const owner = roleCan(role, "pairs.manage");
  const next = nextSchema.parse(searchParamsObject(await searchParams).next);
  const [{ data: overview, problem }, endpoints] = await Promise.all([
    readOrProblem(() => pairSetOverview(prisma, access, pairSetId, { next })),
    owner ? listEndpoints(prisma, access) : Promise.resolve([]),
  ]);
  const choices = endpoints.map((e) => ({ id: e.id, name: e.name, model: e.model }));
  return (
    <PairSetPageFrame
      projectId={projectId}
      pairSetId={pairSetId}
      name={overview?.pairSet.name ?? null}
      title="Pair set"
      current="set"
      owner={owner}
      problem={problem}
    >
      {overview && (
        <>
          <PairSetProgress overview={overview} projectId={projectId} mayReview={roleCan(role, "scores.review")} />
          <Card title="Judge runs">
            <div className="flex flex-col gap-3">
              <PairSetRuns overview={overview} />
              {owner && <JudgePairsForm pairSetId={pairSetId} endpoints={choices} label="Judge both orders" />}
            </div>
          </Card>
          <Card title="Next pairs">
            <NextPairs overview={overview} projectId={projectId} endpoints={choices} owner={owner} />
          </Card>
        </>
      )}
    </PairSetPageFrame>
  );
}
