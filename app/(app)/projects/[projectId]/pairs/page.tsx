import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { NewPairSetForm } from "@/components/pairwise/boards/new-pair-set-form";
import { PairImportForm } from "@/components/pairwise/boards/pair-import-form";
import { PairSetTable } from "@/components/pairwise/boards/pair-set-table";
import { ProjectPageHeader } from "@/components/project-page-header";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { pairSetList } from "@/lib/pairwise/reports/pair-set-overview";

/** The project's pair sets (every member); owners make a new one or import one here. */
export default async function PairSetsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { access, role } = await requirePageProjectAccess(projectId);
  const sets = await pairSetList(prisma, access);
  const owner = roleCan(role, "pairs.manage");
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Pairs" />
      <p className="max-w-3xl text-sm text-slate-600">
        A pair set holds pairs of two videos of one prompt, compared on its aspects by people (side by side, blind by
        default) and by pairwise judges (in both orders). Its leaderboard ranks the generators by Bradley–Terry.
      </p>
      {owner && (
        <div className="flex flex-wrap gap-4">
          <Card title="New pair set">
            <NewPairSetForm projectId={projectId} />
          </Card>
          <Card title="Import">
            <PairImportForm projectId={projectId} />
          </Card>
        </div>
      )}
      {sets.length === 0 ? (
        <EmptyState title="No pair set yet">
          {owner ? "Make one from the project's videos or import one above." : "An owner makes or imports pair sets."}
        </EmptyState>
      ) : (
        <PairSetTable projectId={projectId} sets={sets} />
      )}
    </div>
  );
}
