import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { runManifest } from "@/lib/judge/runs/run-manifest";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "The run as a manifest to keep or run again",
    description:
      "One JSON document: task, settings, prompt versions with their text hashes, endpoint base URL (never its key), requested and called model ids, sampling parameters, input mode and frame sets, FrameJury's version. `POST /projects/{projectId}/runs` with `{manifest, endpointId?}` runs it again.",
    responses: [ok("The manifest, as an attachment `run-<id>-manifest.json`.")],
  },
  async ({ prisma, access, record }) => {
    const manifest = await runManifest(prisma, access, record.id);
    return Response.json(manifest, {
      headers: { "content-disposition": `attachment; filename="run-${record.id}-manifest.json"` },
    });
  },
);
