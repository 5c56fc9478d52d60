/**
 * A self-consistency run's estimate from one plain run's: each of its samples asks every call of the run again
 * (a sample's salt keeps the response cache from answering it), so calls, pictures, tokens and cost are the one
 * run's times the samples. Plain TypeScript for the run form, which asks the dry run of the plain run.
 */
export interface ScalableEstimate {
  calls: number;
  images: number;
  videoFrames: number;
  videoSeconds: number;
  inputTokens: number;
  outputTokens: number;
  outputTokensRange?: [number, number];
  costUsd: number | null;
  costUsdRange?: [number, number] | null;
}

export function sampledEstimate<E extends ScalableEstimate>(one: E, samples: number): E {
  const times = (range: [number, number]): [number, number] => [range[0] * samples, range[1] * samples];
  return {
    ...one,
    calls: one.calls * samples,
    images: one.images * samples,
    videoFrames: one.videoFrames * samples,
    videoSeconds: one.videoSeconds * samples,
    inputTokens: one.inputTokens * samples,
    outputTokens: one.outputTokens * samples,
    ...(one.outputTokensRange ? { outputTokensRange: times(one.outputTokensRange) } : {}),
    costUsd: one.costUsd === null ? null : one.costUsd * samples,
    ...(one.costUsdRange ? { costUsdRange: times(one.costUsdRange) } : {}),
  };
}
