import type { PrismaClient } from "../../lib/generated/prisma/client";
import type { ProjectAccess } from "../../lib/authz/permissions";
import { checkedBootstrapOptions } from "../../lib/stats/bootstrap";
import { byGeneratorOf, type SpanGeneratorAgreement } from "../../lib/spans/agreement/by-generator";
import { type AgreementSpan, greedyMatchColumns, MatchScratch, tableOf } from "../../lib/spans/agreement/match";
import {
  checkedScope,
  scopedSpanAgreementInput,
  type SpanAgreementCatalogue,
  type SpanAgreementQuery,
} from "../../lib/spans/agreement/load-span-agreement";
import {
  agreementOfMatched,
  comparisonsOfPairs,
  markedLabels,
  matchPairs,
} from "../../lib/spans/agreement/span-agreement";
import type { SpanAgreementInput, SpanAgreementOptions, SpanAgreementResult } from "../../lib/spans/agreement/types";

// Span agreement a part at a time, for tests that check one part or compare the app's one-pass report
// (spanAgreementWithGenerators) with each part computed on its own.

/** Every comparison of the input matched once (no bootstrap yet), as the app's report matches them. */
function matchComparisons(input: SpanAgreementInput) {
  return comparisonsOfPairs(matchPairs(input, markedLabels(input)));
}

/** |A ∩ B| / |A ∪ B| in frames, both ends inclusive; 0 when they do not overlap: the overlap matching ranks pairs by. */
export function temporalIou(a: AgreementSpan, b: AgreementSpan): number {
  const inter = Math.min(a.endFrame, b.endFrame) - Math.max(a.startFrame, b.startFrame) + 1;
  if (inter <= 0) return 0;
  const union = a.endFrame - a.startFrame + 1 + (b.endFrame - b.startFrame + 1) - inter;
  return inter / union;
}

interface MatchedPair {
  reference: AgreementSpan;
  prediction: AgreementSpan;
  iou: number;
}

/** The one-to-one greedy matching of overlapping spans (lib/spans/agreement/match.ts), in the order the pairs were taken. */
export function greedyMatch(reference: readonly AgreementSpan[], prediction: readonly AgreementSpan[]): MatchedPair[] {
  const s = new MatchScratch();
  const r = reference.length;
  const n = greedyMatchColumns(tableOf(reference, prediction), 0, r, r, r + prediction.length, s);
  for (let m = 0; m < n; m++) s.matchP[m] = s.matchP[m]! - r;
  return Array.from({ length: n }, (_, i) => ({
    reference: reference[s.matchR[i]!]!,
    prediction: prediction[s.matchP[i]!]!,
    iou: s.matchIou[i]!,
  }));
}

/** Span agreement of every comparison and label, with bootstrap intervals over videos (seed 1, 1000 resamples by default). */
export function spanAgreement(input: SpanAgreementInput, options: SpanAgreementOptions = {}): SpanAgreementResult {
  checkedBootstrapOptions(options);
  return agreementOfMatched(matchComparisons(input), options);
}

/**
 * Span agreement of each generator's videos, generators in natural order (the videos without one last). `whole`, the
 * report over every video with the same options, is the one generator's when all the videos have one: it is not
 * computed twice.
 */
export function spanAgreementByGenerator(
  input: SpanAgreementInput,
  generatorOf: ReadonlyMap<string, string | null>,
  options: SpanAgreementOptions = {},
  whole?: SpanAgreementResult,
): SpanGeneratorAgreement[] {
  return byGeneratorOf(matchComparisons(input), input, generatorOf, options, whole);
}

/** What span agreement reads for a task, loaded afresh (no kept report), as projectSpanAgreement reads it. */
export async function loadSpanAgreementInput(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: Omit<SpanAgreementQuery, "format">,
  catalogue: SpanAgreementCatalogue,
) {
  const scope = await checkedScope(prisma, access.projectId, query);
  const { label, input, generators } = await scopedSpanAgreementInput(prisma, access.actor, scope, query, catalogue);
  return { scope, label, input, generators };
}

/**
 * The report over every video and the same over each generator's videos, generators in natural order (the videos
 * without one last), all from one matching. A video whose generator is not known (absent from `generatorOf`) counts as
 * naming none. What the app's report (load-span-agreement.ts) computes from one matching, with nothing kept.
 */
export function spanAgreementWithGenerators(
  input: SpanAgreementInput,
  generatorOf: ReadonlyMap<string, string | null>,
  options: SpanAgreementOptions = {},
): { whole: SpanAgreementResult; byGenerator: SpanGeneratorAgreement[] } {
  const matched = matchComparisons(input);
  const whole = agreementOfMatched(matched, options);
  return { whole, byGenerator: byGeneratorOf(matched, input, generatorOf, options, whole) };
}
