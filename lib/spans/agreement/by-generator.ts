/**
 * Span agreement per generator (the model that made each video, `video.model`): the same report over each generator's
 * videos alone, so a paper can say where a judge finds one generator's failures and misses another's. Each
 * generator's comparisons, matches and bootstrap intervals are those of the agreement over its videos only: a video's
 * counts depend on its own spans alone, so the spans are matched once for the whole report and each generator's
 * report sums its videos' rows of that one matching. Pure.
 */
import { type MatchedComparisons, agreementOfMatched, splitComparisons } from "./span-agreement";
import type { SpanAgreementInput, SpanAgreementOptions, SpanAgreementResult, SpanLabelAgreement } from "./types";

export interface SpanGeneratorAgreement {
  /** The generator; null for the videos that name none. */
  generator: string | null;
  /** Videos of this generator some rater looked at. */
  videos: number;
  /** Of those, the ones left out because their frame count is unknown. */
  videosLeftOut: number;
  /** Labels with at least one span of this generator's videos in a comparison. */
  labels: SpanLabelAgreement[];
}

const byName = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b, "en", { numeric: true });

/** The generators of the videos some rater looked at, in natural order (none last), and how many videos each has. */
function lookedVideosByGenerator(
  input: Pick<SpanAgreementInput, "coverage">,
  generatorOf: ReadonlyMap<string, string | null>,
): Map<string | null, number> {
  const looked = new Set<string>();
  for (const videos of input.coverage.values()) for (const video of videos) looked.add(video);
  const counts = new Map<string | null, number>();
  for (const video of looked) {
    const generator = generatorOf.get(video) ?? null;
    counts.set(generator, (counts.get(generator) ?? 0) + 1);
  }
  return new Map([...counts].sort(([a], [b]) => byName(a, b)));
}

/**
 * Each generator's report from the matching of every video; `whole` stands for the one generator's when there is one.
 * `kept(generator)`: a report computed before whose generator's videos, their spans and everything else about them
 * are unchanged since, answered instead of a bootstrap of its part (a generator's report reads its own videos alone).
 */
export function byGeneratorOf(
  matched: MatchedComparisons,
  input: Pick<SpanAgreementInput, "coverage">,
  generatorOf: ReadonlyMap<string, string | null>,
  options: SpanAgreementOptions,
  whole: SpanAgreementResult | undefined,
  kept: (generator: string | null) => SpanGeneratorAgreement | undefined = () => undefined,
): SpanGeneratorAgreement[] {
  const videos = lookedVideosByGenerator(input, generatorOf);
  const generators = [...videos.keys()];
  const report = (generator: string | null, result: SpanAgreementResult): SpanGeneratorAgreement => ({
    generator,
    videos: videos.get(generator)!,
    videosLeftOut: result.videosLeftOut,
    labels: result.labels,
  });
  if (generators.length === 0) return [];
  if (generators.length === 1 && whole) return [report(generators[0]!, whole)];
  const partOfGenerator = new Map(generators.map((g, i) => [g, i]));
  // A video no rater looked at is in no comparison: its part is never read, any index will do.
  const parts = splitComparisons(
    matched,
    (video) => partOfGenerator.get(generatorOf.get(video) ?? null) ?? 0,
    generators.length,
  );
  return generators.map((generator, i) => kept(generator) ?? report(generator, agreementOfMatched(parts[i]!, options)));
}
