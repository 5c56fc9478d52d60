import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { videoReviews } from "@/lib/reviews/reviews";

export const GET = withActor<{ videoId: string }>(async (_request, actor, params) =>
  Response.json(await videoReviews(prisma, actor, z.string().min(1).max(64).parse(params.videoId))),
);
