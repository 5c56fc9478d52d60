import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoEditHistory } from "@/lib/videos/video-edits";

/** The video's field edits, newest first (every member). */
export const GET = withActor<{ videoId: string }>(async (_request, actor, params) =>
  Response.json({ edits: await videoEditHistory(prisma, actor, z.string().min(1).max(64).parse(params.videoId)) }),
);
