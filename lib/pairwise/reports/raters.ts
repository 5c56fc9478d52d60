import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ForbiddenError } from "../../errors";
import { judgeRunsOfSet, raterNames, readPairSetHeader } from "./pair-set-votes";
import { capVotesPerPrompt, raterQuality } from "../agreement/rater-quality";
import { loadVotes } from "../votes";
import type { PairwiseRaterBoard } from "./reports.types";

/** Who sees the rater board: owners, who manage queues or pair sets (a reviewer never sees another's record). */
export function mayReadRaterBoard(access: ProjectAccess): boolean {
  return access.action === "queues.manage" || access.action === "pairs.manage";
}

/**
 * Each rater's quality on the set, for owners: honeypot accuracy, agreement with the gold, the share of choices of
 * the left video, the median time per verdict, whether they always give the same verdict, and how many of their votes
 * the cap on votes per prompt leaves out. Every verdict counts here (honeypots are what it measures).
 */
export async function raterBoard(
  prisma: PrismaClient,
  access: ProjectAccess<"queues.manage"> | ProjectAccess<"pairs.manage">,
  pairSetId: string,
): Promise<PairwiseRaterBoard> {
  if (!mayReadRaterBoard(access)) throw new ForbiddenError("Only the project's owners see the raters' quality.");
  const pairSet = await readPairSetHeader(prisma, access, pairSetId);
  const [judgeRuns, votes] = await Promise.all([
    judgeRunsOfSet(prisma, access, pairSetId),
    loadVotes(prisma, access, { pairSetId }),
  ]);
  const counted = votes.filter((vote) => !vote.honeypot && vote.raterKind !== "gold");
  const kept =
    pairSet.votesPerPromptCap === null ? counted : capVotesPerPrompt(counted, pairSet.votesPerPromptCap).votes;
  const keptBy = new Map<string, number>();
  for (const vote of kept) keptBy.set(vote.raterId, (keptBy.get(vote.raterId) ?? 0) + 1);
  const countedBy = new Map<string, number>();
  for (const vote of counted) countedBy.set(vote.raterId, (countedBy.get(vote.raterId) ?? 0) + 1);
  const quality = raterQuality(votes);
  const names = await raterNames(
    prisma,
    access,
    quality.map((row) => row.rater),
    judgeRuns,
  );
  const raters = quality.map((row) => ({
    ...row,
    name: names[row.rater] ?? row.rater,
    votesCapped: (countedBy.get(row.rater) ?? 0) - (keptBy.get(row.rater) ?? 0),
  }));
  return { pairSet, raters };
}
