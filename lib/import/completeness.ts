/**
 * The VBench-2.0 completeness report's shape: which samples of each dimension's prompts each generator holds.
 * lib/videos/completeness-query.ts computes it in PostgreSQL; its tests compare it with the in-memory reference
 * (testkit/import/completeness-report.ts).
 */
export interface MissingSample {
  /** The generator the sample is missing from; null for "no generator". */
  model: string | null;
  prompt: string;
  /** null for prompts whose list names no dimension. */
  dimension: string | null;
  sampleIndex: number;
}

export type UnexpectedReason =
  "index_out_of_range" | "duplicate_sample" | "no_sample_index" | "prompt_not_in_dimension";

export interface UnexpectedVideo {
  relativePath: string;
  model: string | null;
  prompt: string;
  sampleIndex: number | null;
  reason: UnexpectedReason;
  /** For duplicates: the file of the same generator that already counts as this sample. */
  duplicateOf: string | null;
}

export interface UnmatchedVideo {
  relativePath: string;
  dimensions: string[];
}

/** One generator's samples of a dimension (or, in `CompletenessReport.generators`, of every dimension). */
export interface GeneratorCompleteness {
  /** null: the videos with no generator. */
  model: string | null;
  expected: number;
  present: number;
  missing: number;
  unexpected: number;
}

export interface DimensionCompleteness {
  /** null groups prompts (and videos) that have no dimension. */
  dimension: string | null;
  prompts: number;
  samplesPerPrompt: number;
  /** Every generator's: prompts × samples per prompt × generators. */
  expected: number;
  present: number;
  missing: MissingSample[];
  unexpected: UnexpectedVideo[];
  /** Relative paths of videos in this dimension whose prompt is not in any list. */
  unmatched: string[];
  /** Each generator's counts, in the report's generator order. */
  byGenerator: GeneratorCompleteness[];
}

export interface CompletenessReport {
  dimensions: DimensionCompleteness[];
  /** Every video whose name matched no prompt, with or without a dimension. */
  unmatched: UnmatchedVideo[];
  /** Each generator's counts over every dimension: named generators by name, then "no generator". */
  generators: GeneratorCompleteness[];
  totals: {
    /** How many generators the samples are expected of (at least 1: with no videos, "no generator"). */
    generators: number;
    videos: number;
    expected: number;
    present: number;
    missing: number;
    unexpected: number;
    unmatched: number;
  };
}

/** Each generator's counts summed over the dimensions. */
export function sumByGenerator(
  generators: readonly (string | null)[],
  dimensions: readonly { byGenerator: readonly GeneratorCompleteness[] }[],
): GeneratorCompleteness[] {
  return generators.map((model, i) => {
    const rows = dimensions.map((d) => d.byGenerator[i]!);
    const sum = (count: (g: GeneratorCompleteness) => number) => rows.reduce((total, g) => total + count(g), 0);
    return {
      model,
      expected: sum((g) => g.expected),
      present: sum((g) => g.present),
      missing: sum((g) => g.missing),
      unexpected: sum((g) => g.unexpected),
    };
  });
}
