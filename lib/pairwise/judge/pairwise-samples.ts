/**
 * Self-consistency samples or a panel of a pairwise run: its member runs ask every question apart (a sample with its
 * own cache salt at the sample temperature, a panel's judge on its own endpoint), and once the last member is done,
 * the members' reconciled verdicts on each pair and aspect are combined into the parent's by majority. Most votes
 * wins; a draw between A and B is a both-good tie (as a position flip is, ./reconcile.ts); any other draw takes the
 * first of the drawn in the order tie_bad, tie_good, A, B (the most cautious). A member without a verdict on the pair
 * does not vote; no votes: no verdict.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Strength, Verdict } from "../verdicts";
import { pairwiseEnsembleKind } from "./pairwise-settings";
import { upsertRunVerdict } from "./run-verdicts";

const DRAW_ORDER: readonly Verdict[] = ["tie_bad", "tie_good", "A", "B"];

export function majorityVerdict(
  votes: readonly { verdict: Verdict; strength: Strength }[],
): { verdict: Verdict; strength: Strength; agreed: number } | null {
  if (votes.length === 0) return null;
  const counts = new Map<Verdict, number>();
  for (const vote of votes) counts.set(vote.verdict, (counts.get(vote.verdict) ?? 0) + 1);
  const most = Math.max(...counts.values());
  const drawn = DRAW_ORDER.filter((verdict) => counts.get(verdict) === most);
  const verdict = drawn.includes("A") && drawn.includes("B") ? "tie_good" : drawn[0]!;
  const agreeing = votes.filter((vote) => vote.verdict === verdict);
  // Strong only when every vote for it was.
  const strength: Strength = agreeing.length > 0 && agreeing.every((vote) => vote.strength === 2) ? 2 : 1;
  return { verdict, strength, agreed: agreeing.length };
}

/**
 * After a member run finished: when every member of its parent is done, combines their verdicts into the parent's
 * and marks it done. Two members finishing at once both try; the parent's status update lets one combine.
 */
export async function combineSamplesWhenDone(prisma: PrismaClient, memberRunId: string): Promise<void> {
  const member = await prisma.judgeRun.findUnique({ where: { id: memberRunId }, select: { parentRunId: true } });
  const parentId = member?.parentRunId;
  if (!parentId) return;
  const members = await prisma.judgeRun.findMany({
    where: { parentRunId: parentId },
    select: { id: true, status: true },
  });
  if (members.some((m) => m.status !== "done")) return;
  await prisma.$transaction(async (tx) => {
    const claimed = await tx.judgeRun.updateMany({
      where: { id: parentId, status: { in: ["queued", "running"] } },
      data: { status: "done", finishedAt: new Date() },
    });
    if (claimed.count === 0) return;
    const parent = await tx.judgeRun.findUniqueOrThrow({ where: { id: parentId }, select: { ensemble: true } });
    const of = pairwiseEnsembleKind(parent.ensemble) === "panel" ? "judges" : "samples";
    const verdicts = await tx.pairVerdict.findMany({ where: { runId: { in: members.map((m) => m.id) } } });
    const byQuestion = new Map<string, typeof verdicts>();
    for (const v of verdicts) {
      const key = `${v.pairId}\u0000${v.aspect}`;
      byQuestion.set(key, [...(byQuestion.get(key) ?? []), v]);
    }
    for (const votes of byQuestion.values()) {
      const first = votes[0]!;
      const combined = majorityVerdict(
        votes.map((v) => ({ verdict: v.verdict as Verdict, strength: v.strength as Strength })),
      );
      if (!combined) continue;
      const { projectId, pairSetId, pairId, aspect } = first;
      await upsertRunVerdict(
        tx,
        { runId: parentId, projectId, pairSetId, pairId, aspect },
        {
          verdict: combined.verdict,
          strength: combined.strength,
          note: `majority of ${of}: ${combined.agreed} of ${members.length}`,
        },
      );
    }
  });
}
