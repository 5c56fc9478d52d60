/**
 * Span agreement per generator (the model that made each video, `video.model`): the same report over each generator's
 * videos alone, so a paper can say where a judge finds one generator's failures and misses another's. Each
 * generator's comparisons, matches and bootstrap intervals are those of spanAgreement over its videos only. Pure.
 */
import { spanAgreement } from "./span-agreement";
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

/** The input narrowed to the given videos: their spans, coverage and frame counts. */
function inputOf(input: SpanAgreementInput, videos: ReadonlySet<string>): SpanAgreementInput {
  return {
    ...input,
    coverage: new Map(
      [...input.coverage].map(([rater, seen]) => [rater, new Set([...seen].filter((v) => videos.has(v)))]),
    ),
    frameCounts: new Map([...input.frameCounts].filter(([v]) => videos.has(v))),
    spans: input.spans.filter((s) => videos.has(s.videoId)),
  };
}

/**
 * Span agreement of each generator's videos, generators in natural order (the videos without one last). A video whose
 * generator is not known (absent from `generatorOf`) counts as naming none. `whole`, the report over every video with
 * the same options, is the one generator's when all the videos have one: it is not computed twice.
 */
export function spanAgreementByGenerator(
  input: SpanAgreementInput,
  generatorOf: ReadonlyMap<string, string | null>,
  options: SpanAgreementOptions = {},
  whole?: SpanAgreementResult,
): SpanGeneratorAgreement[] {
  const looked = new Set([...input.coverage.values()].flatMap((videos) => [...videos]));
  const videosOf = new Map<string | null, Set<string>>();
  for (const video of looked) {
    const generator = generatorOf.get(video) ?? null;
    let videos = videosOf.get(generator);
    if (!videos) videosOf.set(generator, (videos = new Set()));
    videos.add(video);
  }
  return [...videosOf.keys()].sort(byName).map((generator) => {
    const videos = videosOf.get(generator)!;
    const result = whole && videosOf.size === 1 ? whole : spanAgreement(inputOf(input, videos), options);
    return { generator, videos: videos.size, videosLeftOut: result.videosLeftOut, labels: result.labels };
  });
}
