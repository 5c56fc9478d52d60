import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ImportPanel } from "@/components/import/import-panel";
import { LabelSetPanel } from "@/components/label-sets/label-set-panel";
import { SpanFileImport } from "@/components/label-sets/span-file-import";

export default async function ImportPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requirePageProjectAccess(projectId, "videos.import");
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Import videos" />
      <p className="max-w-3xl text-sm text-slate-600">
        Frames are extracted in this browser (WebCodecs, or ffmpeg.wasm when the browser cannot decode a codec); the
        videos and the frames are stored on the server. Keep this tab open until the import finishes.
      </p>
      <ImportPanel projectId={projectId} />
      <LabelSetPanel projectId={projectId} />
      <SpanFileImport projectId={projectId} />
    </div>
  );
}
