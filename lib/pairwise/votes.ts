import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { RATER_KINDS, type RaterKind, type Side, type Strength, type Vote, VERDICTS, type Verdict } from "./verdicts";

/** Verdicts are read in pages of this many rows, keyset by id: a set of 1,000,000 verdicts never loads in one query. */
export const VOTE_PAGE_SIZE = 10_000;

export interface LoadVotesOptions {
  pairSetId: string;
  /** One aspect, or "all" (the default). */
  aspect?: string;
  raters?: { kinds?: RaterKind[]; ids?: string[] };
  /**
   * The most votes one prompt contributes per rater and aspect: "set" reads the set's votesPerPromptCap, a number sets
   * it; absent, every vote. Over the cap the earliest votes by id are kept; honeypot votes are never capped.
   */
  capPerPrompt?: "set" | number;
  /** Verdicts per query (VOTE_PAGE_SIZE unless a test asks for smaller pages). */
  pageSize?: number;
}

const isVerdict = (value: string): value is Verdict => (VERDICTS as readonly string[]).includes(value);
const isRaterKind = (value: string): value is RaterKind => (RATER_KINDS as readonly string[]).includes(value);
const sideOf = (value: string | null): Side | null => (value === "left" || value === "right" ? value : null);

async function checkedSet(prisma: PrismaClient, access: ProjectAccess, pairSetId: string) {
  const set = await prisma.pairSet.findFirst({
    where: { id: pairSetId, projectId: access.projectId },
    select: { id: true, votesPerPromptCap: true },
  });
  if (!set) throw new NotFoundError("No such pair set.");
  return set;
}

function voteFilter(options: LoadVotesOptions): Prisma.PairVerdictWhereInput {
  return {
    pairSetId: options.pairSetId,
    withdrawn: false,
    ...(options.aspect && options.aspect !== "all" ? { aspect: options.aspect } : {}),
    ...(options.raters?.kinds ? { raterKind: { in: options.raters.kinds } } : {}),
    ...(options.raters?.ids ? { raterId: { in: options.raters.ids } } : {}),
  };
}

/** Whether a vote goes over the cap of its rater, aspect and prompt (counting it if not); never without a cap. */
function promptCap(cap: number | null | undefined): (raterId: string, aspect: string, prompt: string) => boolean {
  if (cap === null || cap === undefined) return () => false;
  const counts = new Map<string, number>();
  return (raterId, aspect, prompt) => {
    const key = `${raterId}\u0000${aspect}\u0000${prompt}`;
    const n = counts.get(key) ?? 0;
    if (n >= cap) return true;
    counts.set(key, n + 1);
    return false;
  };
}

/**
 * The set's verdicts as votes, page by page (each page one query of VOTE_PAGE_SIZE verdicts with their pairs), in id
 * order. Withdrawn verdicts are left out; a honeypot pair's votes carry `honeypot: true` (rankings leave them out,
 * rater quality reads them). A row of a kind or verdict this code does not know is left out rather than guessed.
 */
export async function* streamVotes(
  prisma: PrismaClient,
  access: ProjectAccess,
  options: LoadVotesOptions,
): AsyncGenerator<Vote[]> {
  const set = await checkedSet(prisma, access, options.pairSetId);
  const where = { ...voteFilter(options), pairSetId: set.id, projectId: access.projectId };
  const pageSize = options.pageSize ?? VOTE_PAGE_SIZE;
  const overCap = promptCap(options.capPerPrompt === "set" ? set.votesPerPromptCap : options.capPerPrompt);
  let after: string | null = null;
  for (;;) {
    const rows: Awaited<ReturnType<typeof readPage>> = await readPage(prisma, where, after, pageSize);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const votes: Vote[] = [];
    for (const row of rows) {
      if (!isVerdict(row.verdict) || !isRaterKind(row.raterKind)) continue;
      if (row.pair.honeypot === null && overCap(row.raterId, row.aspect, row.pair.prompt)) continue;
      votes.push({
        pairId: row.pairId,
        prompt: row.pair.prompt,
        aspect: row.aspect,
        generatorA: row.pair.generatorA,
        generatorB: row.pair.generatorB,
        raterId: row.raterId,
        raterKind: row.raterKind,
        verdict: row.verdict,
        strength: (row.strength === 2 ? 2 : 1) satisfies Strength,
        aShownOn: sideOf(row.aShownOn),
        msToVerdict: row.msToVerdict,
        honeypot: row.pair.honeypot !== null,
      });
    }
    yield votes;
    if (rows.length < pageSize) return;
  }
}

function readPage(prisma: PrismaClient, where: Prisma.PairVerdictWhereInput, after: string | null, pageSize: number) {
  return prisma.pairVerdict.findMany({
    where: after === null ? where : { ...where, id: { gt: after } },
    orderBy: { id: "asc" },
    take: pageSize,
    select: {
      id: true,
      pairId: true,
      aspect: true,
      raterId: true,
      raterKind: true,
      verdict: true,
      strength: true,
      aShownOn: true,
      msToVerdict: true,
      pair: { select: { prompt: true, generatorA: true, generatorB: true, honeypot: true } },
    },
  });
}

/** Every vote of the set (of one aspect, of the chosen raters) in one array: streamVotes collected. */
export async function loadVotes(
  prisma: PrismaClient,
  access: ProjectAccess,
  options: LoadVotesOptions,
): Promise<Vote[]> {
  const votes: Vote[] = [];
  for await (const page of streamVotes(prisma, access, options)) for (const vote of page) votes.push(vote);
  return votes;
}

/** One order's answer of a pairwise judge: the verdict in the pair's terms, or null when the answer held none. */
export interface JudgeOrderAnswer {
  verdict: Verdict | null;
  strength: Strength | null;
  /** The label as the judge wrote it, or why there is none. */
  answer: string;
}

/** Both orders' answers of a judge run on one aspect of a pair (null: that order was not answered yet). */
export interface PairJudgeAnswers {
  pairId: string;
  prompt: string;
  aspect: string;
  generatorA: string;
  generatorB: string;
  honeypot: boolean;
  /** Video A shown first. */
  ab: JudgeOrderAnswer | null;
  /** Video B shown first (the verdict already turned back into the pair's terms). */
  ba: JudgeOrderAnswer | null;
}

function orderAnswer(row: { verdict: string | null; strength: number | null; answer: string }): JudgeOrderAnswer {
  const verdict = row.verdict !== null && isVerdict(row.verdict) ? row.verdict : null;
  return {
    verdict,
    strength: verdict === null ? null : row.strength === 2 ? 2 : 1,
    answer: row.verdict !== null && verdict === null ? `unknown verdict ${JSON.stringify(row.verdict)}` : row.answer,
  };
}

/**
 * A pairwise judge run's answers in both orders, per pair and aspect, in pair position order: what the judge-trust
 * figures (position-flip rate, first-position wins) are counted from. Read in pages as loadVotes is.
 */
export async function loadJudgeAnswers(
  prisma: PrismaClient,
  access: ProjectAccess,
  runId: string,
): Promise<PairJudgeAnswers[]> {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: { id: true, pairSetId: true },
  });
  if (!run) throw new NotFoundError("No such run.");
  if (!run.pairSetId) throw new ValidationError("This run is not a pairwise run: it judged no pair set.");
  const byKey = new Map<string, PairJudgeAnswers & { position: number }>();
  let after: { pairId: string; aspect: string; order: string } | null = null;
  for (;;) {
    const rows: Awaited<ReturnType<typeof readAnswerPage>> = await readAnswerPage(prisma, run.id, after);
    for (const row of rows) {
      const key = `${row.pairId}\u0000${row.aspect}`;
      const entry = byKey.get(key) ?? {
        pairId: row.pairId,
        prompt: row.pair.prompt,
        aspect: row.aspect,
        generatorA: row.pair.generatorA,
        generatorB: row.pair.generatorB,
        honeypot: row.pair.honeypot !== null,
        ab: null,
        ba: null,
        position: row.pair.position,
      };
      byKey.set(key, entry);
      if (row.order === "AB") entry.ab = orderAnswer(row);
      else if (row.order === "BA") entry.ba = orderAnswer(row);
    }
    if (rows.length < VOTE_PAGE_SIZE) break;
    const last = rows[rows.length - 1]!;
    after = { pairId: last.pairId, aspect: last.aspect, order: last.order };
  }
  return [...byKey.values()]
    .sort((a, b) => a.position - b.position || compare(a.aspect, b.aspect))
    .map(({ position: _position, ...answers }) => answers);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function readAnswerPage(
  prisma: PrismaClient,
  runId: string,
  after: { pairId: string; aspect: string; order: string } | null,
) {
  const keyset: Prisma.PairJudgeAnswerWhereInput = after
    ? {
        OR: [
          { pairId: { gt: after.pairId } },
          { pairId: after.pairId, aspect: { gt: after.aspect } },
          { pairId: after.pairId, aspect: after.aspect, order: { gt: after.order } },
        ],
      }
    : {};
  return prisma.pairJudgeAnswer.findMany({
    where: { runId, ...keyset },
    orderBy: [{ pairId: "asc" }, { aspect: "asc" }, { order: "asc" }],
    take: VOTE_PAGE_SIZE,
    select: {
      pairId: true,
      aspect: true,
      order: true,
      verdict: true,
      strength: true,
      answer: true,
      pair: { select: { prompt: true, generatorA: true, generatorB: true, honeypot: true, position: true } },
    },
  });
}
