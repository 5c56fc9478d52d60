import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { reviewVideoOutcome } from "@/lib/reviews/reviews";
import { reviewInputSchema } from "@/lib/reviews/reviews.validation";

type Params = { runId: string; videoId: string; target: string };

/** The caller's own hallucination verdict (`/verdict`, 1 or 0) or overall score (`/overall`, 0–100) for a video in a run. */
export const PUT = withActor<Params>(async (request, actor, params) => {
  const id = z.string().min(1).max(64);
  const judgment = await reviewVideoOutcome(
    prisma,
    actor,
    id.parse(params.runId),
    id.parse(params.videoId),
    z.enum(["verdict", "overall"]).parse(params.target),
    await parseJsonBody(request, reviewInputSchema),
  );
  return Response.json({ id: judgment.id, value: judgment.value, note: judgment.note, reason: judgment.reason, version: judgment.version, updatedAt: judgment.updatedAt });
});
