import type { PromptIndex } from "./prompt-lists";
import { canonicalDimension, DEFAULT_SAMPLES_PER_PROMPT, samplesPerPrompt } from "./vbench-dimensions";

/** An imported video as the completeness check needs it (the output of parseVideoPath, or metadata). */
export interface CompletenessVideo {
  relativePath: string;
  prompt: string | null;
  dimensions: string[];
  sampleIndex: number | null;
  /**
   * Not consulted: the report resolves each prompt against `promptIndex` itself, so a list added
   * after the import counts and a prompt typed into metadata that no list holds does not.
   */
  matchedPromptList?: boolean;
}

export interface MissingSample {
  prompt: string;
  /** null for prompts whose list names no dimension. */
  dimension: string | null;
  sampleIndex: number;
}

export type UnexpectedReason = "index_out_of_range" | "duplicate_sample" | "no_sample_index" | "prompt_not_in_dimension";

export interface UnexpectedVideo {
  relativePath: string;
  prompt: string;
  sampleIndex: number | null;
  reason: UnexpectedReason;
  /** For duplicates: the file that already counts as this sample. */
  duplicateOf: string | null;
}

export interface UnmatchedVideo {
  relativePath: string;
  dimensions: string[];
}

export interface DimensionCompleteness {
  /** null groups prompts (and videos) that have no dimension. */
  dimension: string | null;
  prompts: number;
  samplesPerPrompt: number;
  expected: number;
  present: number;
  missing: MissingSample[];
  unexpected: UnexpectedVideo[];
  /** Relative paths of videos in this dimension whose prompt is not in any list. */
  unmatched: string[];
}

export interface CompletenessReport {
  dimensions: DimensionCompleteness[];
  /** Every video whose name matched no prompt, with or without a dimension. */
  unmatched: UnmatchedVideo[];
  totals: {
    videos: number;
    expected: number;
    present: number;
    missing: number;
    unexpected: number;
    unmatched: number;
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareDimensionKeys(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compareText(a, b);
}

function samplesFor(dimension: string | null): number {
  return dimension === null ? DEFAULT_SAMPLES_PER_PROMPT : samplesPerPrompt(dimension);
}

class DimensionTally {
  readonly prompts = new Set<string>();
  /** `prompt` → sample index → the file that counts as that sample. */
  readonly samples = new Map<string, Map<number, string>>();
  readonly unexpected: UnexpectedVideo[] = [];
  readonly unmatched: string[] = [];
  present = 0;

  constructor(readonly dimension: string | null) {}

  get samplesPerPrompt(): number {
    return samplesFor(this.dimension);
  }

  toReport(): DimensionCompleteness {
    const prompts = [...this.prompts].sort(compareText);
    const missing: MissingSample[] = [];
    for (const prompt of prompts) {
      const found = this.samples.get(prompt);
      for (let sampleIndex = 0; sampleIndex < this.samplesPerPrompt; sampleIndex += 1) {
        if (!found?.has(sampleIndex)) missing.push({ prompt, dimension: this.dimension, sampleIndex });
      }
    }
    return {
      dimension: this.dimension,
      prompts: prompts.length,
      samplesPerPrompt: this.samplesPerPrompt,
      expected: prompts.length * this.samplesPerPrompt,
      present: this.present,
      missing,
      unexpected: [...this.unexpected].sort((a, b) => compareText(a.relativePath, b.relativePath)),
      unmatched: [...this.unmatched].sort(compareText),
    };
  }
}

/**
 * Which samples of each dimension's prompts are present, missing or unexpected. A video counts
 * for every dimension it is in; an index beyond one dimension's count but within another's (a
 * flat-layout Diversity prompt's 20 samples, of which Mechanics uses 0–2) is neither counted nor
 * flagged there. When two files claim the same sample, the first by path counts. A video whose
 * prompt (full or as truncated in its name) is not in `promptIndex` is listed as unmatched.
 * The rules' reference: requests compute the same report in PostgreSQL, a page at a time
 * (lib/videos/completeness-query.ts), and its test compares the two.
 */
export function completenessReport({ promptIndex, videos }: { promptIndex: PromptIndex; videos: readonly CompletenessVideo[] }): CompletenessReport {
  const tallies = new Map<string | null, DimensionTally>();
  const tallyFor = (dimension: string | null): DimensionTally => {
    let tally = tallies.get(dimension);
    if (!tally) {
      tally = new DimensionTally(dimension);
      tallies.set(dimension, tally);
    }
    return tally;
  };

  for (const entry of promptIndex.entries) {
    const dimensions = entry.dimensions.length > 0 ? entry.dimensions : [null];
    for (const dimension of dimensions) tallyFor(dimension).prompts.add(entry.prompt);
  }

  const unmatched: UnmatchedVideo[] = [];
  const sortedVideos = [...videos].sort((a, b) => compareText(a.relativePath, b.relativePath));
  for (const video of sortedVideos) {
    const videoDimensions = [...new Set(video.dimensions.map(canonicalDimension))];
    const dimensions: (string | null)[] = videoDimensions.length > 0 ? videoDimensions : [null];
    const prompt = video.prompt === null ? null : (promptIndex.lookup(video.prompt)?.prompt ?? null);
    if (prompt === null) {
      unmatched.push({ relativePath: video.relativePath, dimensions: videoDimensions });
      for (const dimension of dimensions) tallyFor(dimension).unmatched.push(video.relativePath);
      continue;
    }
    const largestSampleCount = Math.max(...dimensions.map(samplesFor));
    for (const dimension of dimensions) {
      const tally = tallyFor(dimension);
      const flag = (reason: UnexpectedReason, duplicateOf: string | null = null) =>
        tally.unexpected.push({ relativePath: video.relativePath, prompt, sampleIndex: video.sampleIndex, reason, duplicateOf });
      if (!tally.prompts.has(prompt)) {
        flag("prompt_not_in_dimension");
        continue;
      }
      if (video.sampleIndex === null) {
        flag("no_sample_index");
        continue;
      }
      if (video.sampleIndex >= tally.samplesPerPrompt) {
        if (video.sampleIndex >= largestSampleCount) flag("index_out_of_range");
        continue;
      }
      const samples = tally.samples.get(prompt) ?? new Map<number, string>();
      tally.samples.set(prompt, samples);
      const counted = samples.get(video.sampleIndex);
      if (counted !== undefined) {
        flag("duplicate_sample", counted);
        continue;
      }
      samples.set(video.sampleIndex, video.relativePath);
      tally.present += 1;
    }
  }

  const dimensions = [...tallies.values()].sort((a, b) => compareDimensionKeys(a.dimension, b.dimension)).map((tally) => tally.toReport());
  const sum = (count: (dimension: DimensionCompleteness) => number) => dimensions.reduce((total, dimension) => total + count(dimension), 0);
  return {
    dimensions,
    unmatched,
    totals: {
      videos: videos.length,
      expected: sum((dimension) => dimension.expected),
      present: sum((dimension) => dimension.present),
      missing: sum((dimension) => dimension.missing.length),
      unexpected: sum((dimension) => dimension.unexpected.length),
      unmatched: unmatched.length,
    },
  };
}
