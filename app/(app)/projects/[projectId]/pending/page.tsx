import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { PendingExtractionPanel } from "@/components/import/pending-extraction-panel";

export default async function PendingPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requirePageProjectAccess(projectId, "videos.import");
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Videos waiting for frames" />
      <p className="text-sm text-slate-600">Videos registered through the API have no frames yet; this page extracts them in this browser.</p>
      <PendingExtractionPanel projectId={projectId} />
    </div>
  );
}
