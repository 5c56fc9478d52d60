import type { Verdict, Vote } from "../verdicts";
import type { AgreementFigure, AgreementRow, HumanNoiseLine } from "./agreement.types";
import {
  agreementOfComparisons,
  pairVerdicts,
  preferenceAgreement,
  unitKey,
  type Comparison,
} from "./preference-agreement";
import { compareCodeUnits, groupByPrompt, intervalsOfSums, type BootstrapOverPrompts } from "./prompt-bootstrap";
import { alphaFromCoincidences, coincidences, verdictCode } from "./verdict-statistics";

/**
 * Who is compared with whom on one aspect. People are reviewers and label sets' annotators (raterKind "reviewer" or
 * "label_set"); judges are judge runs ("judge"); the gold is raterKind "gold".
 *
 * The pooled "people" reference of a pair is the verdict most of the people (other than the rater compared) gave on
 * it; a pair whose most-given verdict is shared by two verdicts (1 A, 1 B; or 2 A, 2 tie_good) has no majority and is
 * left out of that row, counted in `referenceTiesLeftOut`.
 */
export interface AgreementRowsOptions extends BootstrapOverPrompts {
  aspect: string;
}

type PersonKind = "reviewer" | "label_set";
type ComparedKind = PersonKind | "judge";

/** One rater's verdicts on the aspect. */
export interface RaterVotes {
  rater: string;
  kind: ComparedKind;
  votes: Vote[];
}

const isPerson = (kind: Vote["raterKind"]): kind is PersonKind => kind === "reviewer" || kind === "label_set";

/** The aspect's verdicts by rater (raters in code-unit order), and the gold's. */
function ratersOnAspect(votes: readonly Vote[], aspect: string) {
  const raters = new Map<string, RaterVotes>();
  const gold: Vote[] = [];
  for (const vote of votes) {
    if (vote.aspect !== aspect) continue;
    if (vote.raterKind === "gold") {
      gold.push(vote);
      continue;
    }
    const entry = raters.get(vote.raterId);
    if (entry) entry.votes.push(vote);
    else raters.set(vote.raterId, { rater: vote.raterId, kind: vote.raterKind, votes: [vote] });
  }
  const sorted = [...raters.values()].sort((x, y) => compareCodeUnits(x.rater, y.rater));
  return {
    people: sorted.filter((r) => isPerson(r.kind)),
    judges: sorted.filter((r) => r.kind === "judge"),
    gold,
  };
}

/** The majority verdict of the people on each pair, one vote per pair; pairs without a single majority left out. */
export function majorityVotes(people: readonly RaterVotes[]): { votes: Vote[]; tiesLeftOut: number } {
  const units = new Map<string, { first: Vote; counts: Map<Verdict, number> }>();
  for (const person of people) {
    for (const vote of person.votes) {
      const key = unitKey(vote);
      const unit = units.get(key) ?? { first: vote, counts: new Map<Verdict, number>() };
      unit.counts.set(vote.verdict, (unit.counts.get(vote.verdict) ?? 0) + 1);
      units.set(key, unit);
    }
  }
  const votes: Vote[] = [];
  let tiesLeftOut = 0;
  for (const { first, counts } of units.values()) {
    const top = Math.max(...counts.values());
    const leaders = [...counts].filter(([, count]) => count === top);
    if (leaders.length > 1) {
      tiesLeftOut++;
      continue;
    }
    votes.push({ ...first, raterId: "people", verdict: leaders[0]![0], aShownOn: null, msToVerdict: null });
  }
  return { votes, tiesLeftOut };
}

function comparedRows(
  rater: RaterVotes,
  people: readonly RaterVotes[],
  gold: readonly Vote[],
  options: AgreementRowsOptions,
) {
  const rows: AgreementRow[] = [];
  const row = (reference: string, agreement: AgreementRow["agreement"], extra: Partial<AgreementRow> = {}) =>
    rows.push({ aspect: options.aspect, rater: rater.rater, raterKind: rater.kind, reference, agreement, ...extra });
  const others = people.filter((person) => person.rater !== rater.rater);
  for (const person of others) {
    const comparisons = pairVerdicts(rater.votes, person.votes);
    if (comparisons.length > 0) row(`person:${person.rater}`, agreementOfComparisons(comparisons, options));
  }
  if (others.length > 0) {
    const majority = majorityVotes(others);
    row("people", preferenceAgreement(rater.votes, majority.votes, options), {
      referenceTiesLeftOut: majority.tiesLeftOut,
    });
  }
  if (gold.length > 0) row("gold", preferenceAgreement(rater.votes, gold, options));
  return rows;
}

/**
 * Every comparison on one aspect: each person against each other person they share a pair with, against the
 * pooled majority of the other people and against the gold; each judge run against each person, the people's
 * majority and the gold. Rows in code-unit order of the rater, people first.
 */
export function agreementRows(votes: readonly Vote[], options: AgreementRowsOptions): AgreementRow[] {
  const { people, judges, gold } = ratersOnAspect(votes, options.aspect);
  return [...people, ...judges].flatMap((rater) => comparedRows(rater, people, gold, options));
}

/** Every two people's verdicts on the same pair, each unordered couple of people once. */
function peopleComparisons(people: readonly RaterVotes[]): Comparison[] {
  const comparisons: Comparison[] = [];
  for (let i = 0; i < people.length; i++) {
    for (let j = i + 1; j < people.length; j++) comparisons.push(...pairVerdicts(people[i]!.votes, people[j]!.votes));
  }
  return comparisons;
}

export interface HumanNoiseOptions extends AgreementRowsOptions {
  /** The judge run's rater id (`run:<id>`). */
  judge: string;
}

function noiseReason(judge: AgreementFigure, human: AgreementFigure): string | null {
  if (human.n === 0) return "people's agreement cannot be computed: no pair of this aspect has verdicts of two people";
  if (human.lower === null) return "people's agreement has no interval (no bootstrap draws)";
  if (judge.n === 0) return "the judge gave no verdict on a pair the people gave verdicts on";
  return null;
}

/**
 * Whether a judge is within human noise on one aspect: its three-way accuracy against each person (pooled over
 * every judge–person couple on a shared pair) reaches the lower 95% bound of the people's three-way accuracy with
 * each other (pooled over every couple of people on a shared pair). The same pooling on both sides makes the two
 * figures like for like. `within` is null, with the reason, when either side has nothing to count.
 */
export function humanNoiseLine(votes: readonly Vote[], options: HumanNoiseOptions): HumanNoiseLine {
  const { people } = ratersOnAspect(votes, options.aspect);
  const judgeVotes = votes.filter((vote) => vote.aspect === options.aspect && vote.raterId === options.judge);
  const judgeComparisons = people.flatMap((person) => pairVerdicts(judgeVotes, person.votes));
  const judgeAccuracy3 = agreementOfComparisons(judgeComparisons, options).accuracy3;
  const humanAccuracy3 = agreementOfComparisons(peopleComparisons(people), options).accuracy3;
  const reason = noiseReason(judgeAccuracy3, humanAccuracy3);
  const within = reason === null ? judgeAccuracy3.value! >= humanAccuracy3.lower! : null;
  return { aspect: options.aspect, judge: options.judge, judgeAccuracy3, humanAccuracy3, within, reason };
}

/** The within-human-noise line of every judge run on every aspect of the votes (aspects, then judges, in order). */
export function humanNoiseLines(votes: readonly Vote[], options: BootstrapOverPrompts = {}): HumanNoiseLine[] {
  const aspects = new Set<string>();
  const judges = new Set<string>();
  for (const vote of votes) {
    aspects.add(vote.aspect);
    if (vote.raterKind === "judge") judges.add(vote.raterId);
  }
  const sortedJudges = [...judges].sort(compareCodeUnits);
  return [...aspects]
    .sort(compareCodeUnits)
    .flatMap((aspect) =>
      sortedJudges
        .filter((judge) => votes.some((vote) => vote.aspect === aspect && vote.raterId === judge))
        .map((judge) => humanNoiseLine(votes, { ...options, aspect, judge })),
    );
}

/**
 * Krippendorff's α (nominal) among all the people on one aspect: every pair with verdicts of two or more people is
 * a unit (n counts them), with its 95% interval over prompts.
 */
export function peopleAlpha(votes: readonly Vote[], options: AgreementRowsOptions): AgreementFigure {
  const { people } = ratersOnAspect(votes, options.aspect);
  const units = new Map<string, { prompt: string; values: number[] }>();
  for (const person of people) {
    for (const vote of person.votes) {
      const key = unitKey(vote);
      const unit = units.get(key) ?? { prompt: vote.prompt, values: [] };
      unit.values.push(verdictCode(vote.verdict));
      units.set(key, unit);
    }
  }
  const pairable = [...units.values()].filter((unit) => unit.values.length >= 2);
  // Coincidences add up over units, so each prompt's matrix is summed by the bootstrap.
  const perPrompt = groupByPrompt(pairable).map((group) => coincidences(group.map((unit) => unit.values)));
  const [interval] = intervalsOfSums(perPrompt, 1, (sum) => [alphaFromCoincidences(sum)], options);
  const value = alphaFromCoincidences(coincidences(pairable.map((unit) => unit.values)));
  return { value, lower: interval!.lower, upper: interval!.upper, n: pairable.length };
}
