import { videoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { videoEditHistory } from "@/lib/videos/video-edits";
import { ok } from "@/lib/api/openapi/route-builders";

/** The video's field edits, newest first (every member). */
export const GET = withProjectOf(
  videoLookup(),
  "project.view",
  {
    summary: "The video's field edits, newest first",
    responses: [ok("`{edits: [...]}`.")],
  },
  async ({ access, prisma, record }) => Response.json({ edits: await videoEditHistory(prisma, access, record.id) }),
);
