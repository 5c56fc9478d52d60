import { requirePageProjectAccess } from "@/app/_server/actor";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { Card } from "@/components/empty-state";
import { PairwiseAgreementSections } from "@/components/pairwise/boards/agreement-sections";
import { readOrProblem } from "@/components/pairwise/boards/page-problem";
import { PairSetPageFrame } from "@/components/pairwise/boards/pair-set-page-header";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { pairwiseAgreement } from "@/lib/pairwise/reports/agreement";
import { pairwiseAgreementQuerySchema } from "@/lib/pairwise/reports/reports.types";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** Agreement on a pair set's preferences per aspect: people with each other, each judge run with people (every member). */
export default async function PairwiseAgreementPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, pairSetId } = await params;
  const { access, role } = await requirePageProjectAccess(projectId);
  const { draws, seed } = searchParamsObject(await searchParams);
  const {
    data: report,
    problem,
    withheld,
  } = await readOrProblem(async () =>
    pairwiseAgreement(prisma, access, pairSetId, pairwiseAgreementQuerySchema.parse({ draws, seed })),
  );
  const csv = `/api/v1/pair-sets/${pairSetId}/agreement?format=csv`;
  return (
    <PairSetPageFrame
      projectId={projectId}
      pairSetId={pairSetId}
      name={report?.pairSet.name ?? null}
      title="Pairwise agreement"
      current="agreement"
      owner={roleCan(role, "pairs.manage")}
      intro={
        <>
          As GenAI-Bench defines them: accuracy over the four verdicts (A, B, both good, both bad), over three (the ties
          merged) and over two (pairs either side called a tie left out); Cohen&apos;s κ and Krippendorff&apos;s α
          (nominal) on the verdicts; 95% intervals resample prompts. A judge is within human noise when its three-way
          accuracy with people reaches the lower bound of people&apos;s with each other.
        </>
      }
      problem={problem}
      withheld={withheld}
    >
      {report && (
        <>
          <Card title="Downloads">
            <ExportButtons
              downloads={[{ label: "CSV", href: csv, filename: `pairwise-agreement-${pairSetId}.csv`, kind: "csv" }]}
            />
          </Card>
          <PairwiseAgreementSections report={report} />
        </>
      )}
    </PairSetPageFrame>
  );
}
