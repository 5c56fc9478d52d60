import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ImportPanel } from "@/components/import/import-panel";

export default async function ImportPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requirePageProjectAccess(projectId, "videos.import");
  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Import videos</h1>
        <Link href={`/projects/${projectId}`} className="text-sm text-indigo-700 underline">
          back to the project
        </Link>
      </div>
      <p className="max-w-3xl text-sm text-slate-600">
        Frames are extracted in this browser (WebCodecs, or ffmpeg.wasm when the browser cannot decode a codec); the videos and
        the frames are stored on the server. Keep this tab open until the import finishes.
      </p>
      <ImportPanel projectId={projectId} />
    </div>
  );
}
