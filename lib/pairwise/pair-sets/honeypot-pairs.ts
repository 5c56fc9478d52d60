import { z } from "zod";

/**
 * A honeypot pair shows a video against a visibly broken copy of itself: its frames frozen (the first frame held),
 * shuffled (played out of order) or corrupted (blocks of noise). The pair stores the one video on both sides
 * (videoBId = videoAId, generatorB = generatorA) and `honeypot: {kind}`; whoever shows or sends the pair renders
 * video B broken. The expected verdict is A, so a rater's honeypot answers measure their attention, and rankings
 * leave honeypot pairs out.
 */
export const HONEYPOT_KINDS = ["frozen", "shuffled", "corrupted"] as const;
export type HoneypotKind = (typeof HONEYPOT_KINDS)[number];
export const honeypotKindSchema = z.enum(HONEYPOT_KINDS);

/** What Pair.honeypot holds. */
export const pairHoneypotSchema = z.object({ kind: honeypotKindSchema });
export type PairHoneypot = z.infer<typeof pairHoneypotSchema>;

/** The pair key of a honeypot: one per video and kind within a set. */
export function honeypotPairKey(videoId: string, kind: HoneypotKind): string {
  return `honeypot:${kind}:${videoId}`;
}

/** The stored Pair.honeypot read back: its kind, or null for an ordinary pair (or a value this code does not know). */
export function honeypotOf(stored: unknown): PairHoneypot | null {
  if (stored === null || stored === undefined) return null;
  const parsed = pairHoneypotSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
