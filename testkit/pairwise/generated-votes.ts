/** A generic pairwise CSV of `rows` votes made as it is read (for the import's million-row test and benchmark). */
export interface GeneratedVotes {
  rows: number;
  pairs: number;
  /** Every this many rows one has an unknown verdict. */
  refusedEvery: number;
}

export async function* generatedVoteCsv({ rows, pairs, refusedEvery }: GeneratedVotes): AsyncGenerator<Uint8Array> {
  yield Buffer.from("video_a,video_b,verdict,aspect,rater,prompt,generator_a,generator_b\n");
  const verdicts = ["A", "B", "tie_good", "tie_bad"];
  for (let start = 0; start < rows; start += 10_000) {
    let text = "";
    for (let i = start; i < Math.min(rows, start + 10_000); i++) {
      const pair = i % pairs;
      const rater = Math.floor(i / pairs);
      const verdict = i % refusedEvery === 0 ? "maybe" : verdicts[i % 4];
      const [a, b] = [`gen${pair % 50}`, `gen${(pair + 1) % 50}`];
      text += `${a}/clip_${pair}.mp4,${b}/clip_${pair}.mp4,${verdict},overall,rater${rater},prompt ${pair % 5000},${a},${b}\n`;
    }
    yield Buffer.from(text);
  }
}

/**
 * The bytes of `source`, sampling the process's resident memory as each piece is asked for: a timer would not do, since
 * an import that reads a generated file never leaves the microtask queue for the timers.
 */
export function sampledRss(source: AsyncIterable<Uint8Array>): {
  file: AsyncIterable<Uint8Array>;
  peakGrowthMiB: () => number;
} {
  const before = process.memoryUsage().rss;
  let peak = before;
  return {
    file: (async function* () {
      for await (const chunk of source) {
        peak = Math.max(peak, process.memoryUsage().rss);
        yield chunk;
      }
      peak = Math.max(peak, process.memoryUsage().rss);
    })(),
    peakGrowthMiB: () => (Math.max(peak, process.memoryUsage().rss) - before) / 2 ** 20,
  };
}
