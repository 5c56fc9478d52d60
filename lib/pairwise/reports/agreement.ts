import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import type { Vote } from "../verdicts";
import { judgeRunsOfSet, raterNames, readPairSetHeader, requireWholePairSet } from "./pair-set-votes";
import { agreementRows, humanNoiseLines, peopleAlpha } from "../agreement/agreement-rows";
import { capVotesPerPrompt } from "../agreement/rater-quality";
import { loadVotes } from "../votes";
import type { AspectAgreement, PairwiseAgreement, PairwiseAgreementQuery } from "./reports.types";

/**
 * Agreement on the set's preferences, per aspect: each person and each judge run against the other people pooled, each
 * person and the gold (GenAI-Bench's four-, three- and two-way accuracies, Cohen's κ and Krippendorff's α, with
 * bootstrap intervals over prompts), and for each judge run whether it is within human noise. Honeypot votes are left
 * out (they measure raters, not preferences) and the cap on votes per prompt applies; both counts are given.
 */
export async function pairwiseAgreement(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
  query: Pick<PairwiseAgreementQuery, "draws" | "seed">,
): Promise<PairwiseAgreement> {
  const pairSet = await readPairSetHeader(prisma, access, pairSetId);
  await requireWholePairSet(prisma, access, pairSet, "The pairwise agreement");
  const [judgeRuns, loaded] = await Promise.all([
    judgeRunsOfSet(prisma, access, pairSetId),
    loadVotes(prisma, access, { pairSetId }),
  ]);
  const honeypotVotesLeftOut = loaded.filter((vote) => vote.honeypot).length;
  const counted = loaded.filter((vote) => !vote.honeypot);
  const { votes, dropped } =
    pairSet.votesPerPromptCap === null
      ? { votes: counted, dropped: 0 }
      : capVotesPerPrompt(counted, pairSet.votesPerPromptCap);
  const aspects = pairSet.aspects.map((aspect) =>
    aspectAgreement(
      votes.filter((vote) => vote.aspect === aspect.id),
      aspect,
      query,
    ),
  );
  const names = await raterNames(prisma, access, [...new Set(loaded.map((vote) => vote.raterId))], judgeRuns);
  return { pairSet, aspects, raterNames: names, honeypotVotesLeftOut, cappedVotesDropped: dropped };
}

function aspectAgreement(
  votes: readonly Vote[],
  aspect: { id: string; label: string },
  options: { draws: number; seed: number },
): AspectAgreement {
  const base = { aspect: aspect.id, label: aspect.label };
  if (votes.length === 0)
    return { ...base, rows: [], noise: [], peopleAlpha: null, withheld: "No verdict on this aspect yet." };
  const draws = { aspect: aspect.id, draws: options.draws, seed: options.seed };
  const rows = agreementRows(votes, draws);
  // Every judge run with a verdict on this aspect (the votes are this aspect's), in id order.
  const noise = humanNoiseLines(votes, { draws: options.draws, seed: options.seed });
  const alpha = peopleAlpha(votes, draws);
  if (rows.length === 0)
    return {
      ...base,
      rows,
      noise,
      peopleAlpha: alpha,
      withheld: "No two raters (or a rater and the gold) answered the same pair yet.",
    };
  return { ...base, rows, noise, peopleAlpha: alpha, withheld: null };
}
