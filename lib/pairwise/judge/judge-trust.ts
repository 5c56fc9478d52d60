/**
 * Judge-trust figures of a pairwise run, per aspect, from its stored answers in both orders: how often its winner
 * changes when the videos are exchanged (the position-flip rate), how often the winner is the video shown first,
 * and how many answers held no verdict. Pure over loaded answers; `loadJudgeTrust` reads a run's within its project.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import type { Verdict } from "../verdicts";
import { loadJudgeAnswers } from "../votes";
import type { PairOrder } from "./reconcile";
import { PAIRWISE_RUN } from "../../run-records/run-name";

export interface TrustAnswer {
  pairId: string;
  aspect: string;
  order: PairOrder;
  /** In the pair's terms (un-swapped); null: no verdict label. */
  verdict: Verdict | null;
}

export interface AspectTrust {
  aspect: string;
  answers: number;
  answersWithoutVerdict: number;
  /** (pair) with both orders answered with a verdict. */
  pairsBothOrders: number;
  /** Of those: the winner (A or B) in one order is the other video in the other order. */
  positionFlips: number;
  /** positionFlips / pairsBothOrders; null without such pairs. */
  positionFlipRate: number | null;
  /** Of those: any disagreement between the orders (a flip, or a winner against a tie, or two kinds of tie). */
  inconsistentPairs: number;
  /** Answers naming a winner (ties and no verdict left out). */
  decidedAnswers: number;
  /** Of those: the winner was the video shown first. */
  firstPositionWins: number;
  /** firstPositionWins / decidedAnswers; 0.5 is no position bias; null without decided answers. */
  firstPositionWinShare: number | null;
}

const shownFirst = (order: PairOrder): "A" | "B" => (order === "AB" ? "A" : "B");

export function judgeTrust(answers: readonly TrustAnswer[]): AspectTrust[] {
  const byAspect = new Map<string, TrustAnswer[]>();
  for (const answer of answers) {
    const list = byAspect.get(answer.aspect) ?? [];
    list.push(answer);
    byAspect.set(answer.aspect, list);
  }
  return [...byAspect.entries()].map(([aspect, list]) => aspectTrust(aspect, list));
}

function aspectTrust(aspect: string, answers: readonly TrustAnswer[]): AspectTrust {
  const decided = answers.filter((a) => a.verdict === "A" || a.verdict === "B");
  const firstPositionWins = decided.filter((a) => a.verdict === shownFirst(a.order)).length;
  const byPair = new Map<string, Partial<Record<PairOrder, Verdict | null>>>();
  for (const answer of answers)
    byPair.set(answer.pairId, { ...byPair.get(answer.pairId), [answer.order]: answer.verdict });
  let both = 0;
  let flips = 0;
  let inconsistent = 0;
  for (const orders of byPair.values()) {
    const [ab, ba] = [orders.AB ?? null, orders.BA ?? null];
    if (ab === null || ba === null) continue;
    both++;
    if (ab !== ba) inconsistent++;
    if ((ab === "A" && ba === "B") || (ab === "B" && ba === "A")) flips++;
  }
  return {
    aspect,
    answers: answers.length,
    answersWithoutVerdict: answers.filter((a) => a.verdict === null).length,
    pairsBothOrders: both,
    positionFlips: flips,
    positionFlipRate: both ? flips / both : null,
    inconsistentPairs: inconsistent,
    decidedAnswers: decided.length,
    firstPositionWins,
    firstPositionWinShare: decided.length ? firstPositionWins / decided.length : null,
  };
}

/** The trust figures of a pairwise run of the access's project; a run of another project, or not pairwise, is not found. */
export async function loadJudgeTrust(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
): Promise<{ runId: string; aspects: AspectTrust[] }> {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId, pipeline: PAIRWISE_RUN.pipeline },
    select: { id: true, members: { select: { id: true } } },
  });
  if (!run) throw new NotFoundError("No pairwise run with this id in this project.");
  // A run of samples has its members' answers: each sample's pair counts apart.
  const runIds = run.members.length ? run.members.map((m) => m.id) : [runId];
  const answers: TrustAnswer[] = [];
  for (const id of runIds) {
    for (const pair of await loadJudgeAnswers(prisma, access, id)) {
      const pairId = runIds.length > 1 ? `${id}:${pair.pairId}` : pair.pairId;
      if (pair.ab) answers.push({ pairId, aspect: pair.aspect, order: "AB", verdict: pair.ab.verdict });
      if (pair.ba) answers.push({ pairId, aspect: pair.aspect, order: "BA", verdict: pair.ba.verdict });
    }
  }
  return { runId, aspects: judgeTrust(answers) };
}
