import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoEditHistory } from "@/lib/videos/video-edits";
import { recordIdSchema } from "@/lib/validation/ids";

/** The video's field edits, newest first (every member). */
export const GET = withActor<{ videoId: string }>(async (_request, actor, params) => Response.json({ edits: await videoEditHistory(prisma, actor, recordIdSchema.parse(params.videoId)) }));
