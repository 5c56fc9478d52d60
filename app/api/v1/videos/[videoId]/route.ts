import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { getVideoDetail } from "@/lib/videos/queries";

export const GET = withActor<{ videoId: string }>(async (_request, actor, params) =>
  Response.json(await getVideoDetail(appDeps(), actor, z.string().min(1).max(64).parse(params.videoId))),
);
