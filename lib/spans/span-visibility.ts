import type { PrismaClient } from "../generated/prisma/client";
import { isBlindFor } from "../visibility/judge-visibility";
import type { SpanRecord } from "./span-types";

/**
 * The spans of a video the caller may see: all of them, except while the caller reviews the video blind (a blind
 * queue they have not submitted it in), when only their own spans show; the judge's, the gold and other people's
 * stay hidden until they submit, as the judge's values do.
 */
export async function visibleSpansFor(
  prisma: PrismaClient,
  userId: string,
  videoId: string,
  spans: readonly SpanRecord[],
): Promise<{ spans: SpanRecord[]; blind: boolean }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { spans: [...spans], blind: false };
  return { spans: spans.filter((s) => s.authorKind === "reviewer" && s.authorId === userId), blind: true };
}
