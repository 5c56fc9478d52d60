import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { PendingExtractionPanel } from "@/components/import/pending-extraction-panel";

export default async function PendingPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requirePageProjectAccess(projectId, "videos.import");
  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Videos waiting for frames</h1>
        <Link href={`/projects/${projectId}`} className="text-sm text-indigo-700 underline">
          back to the project
        </Link>
      </div>
      <p className="text-sm text-slate-600">Videos registered through the API have no frames yet; this page extracts them in this browser.</p>
      <PendingExtractionPanel projectId={projectId} />
    </div>
  );
}
