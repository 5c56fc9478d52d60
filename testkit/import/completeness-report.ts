import type { PromptIndex } from "../../lib/import/prompt-lists";
import {
  canonicalDimension,
  DEFAULT_SAMPLES_PER_PROMPT,
  DIVERSITY_SAMPLES_PER_PROMPT,
  matchDimension,
} from "../../lib/import/vbench-dimensions";
import {
  sumByGenerator,
  type CompletenessReport,
  type DimensionCompleteness,
  type GeneratorCompleteness,
  type MissingSample,
  type UnexpectedReason,
  type UnexpectedVideo,
  type UnmatchedVideo,
} from "../../lib/import/completeness";

/** An imported video as the completeness check needs it (the output of parseVideoPath, or metadata). */
export interface CompletenessVideo {
  relativePath: string;
  prompt: string | null;
  dimensions: string[];
  sampleIndex: number | null;
  /** The generator (VBench-2.0's `samples/<model>/…`): each generator is expected to hold every sample; null or '' is "no generator". */
  model?: string | null;
  /**
   * Not consulted: the report resolves each prompt against `promptIndex` itself, so a list added
   * after the import counts and a prompt typed into metadata that no list holds does not.
   */
  matchedPromptList?: boolean;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** VBench-2.0's samples per prompt of a dimension (the SQL report reads the same rule in its CASE). */
export function samplesPerPrompt(dimension: string): number {
  return matchDimension(dimension) === "Diversity" ? DIVERSITY_SAMPLES_PER_PROMPT : DEFAULT_SAMPLES_PER_PROMPT;
}

/** A video's generator as the report groups it: '' and null are "no generator". */
function generatorOf(model: string | null | undefined): string | null {
  return model ? model : null;
}

/** Named generators in byte order, then "no generator"; with no videos, "no generator" alone, so the expected samples show. */
function reportGenerators(models: Iterable<string | null>): (string | null)[] {
  const distinct = [...new Set(models)];
  if (distinct.length === 0) return [null];
  return distinct.sort((a, b) => (a === null || b === null ? (a === b ? 0 : a === null ? 1 : -1) : compareText(a, b)));
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
  /** Generator → `prompt` → sample index → the file that counts as that sample. */
  readonly samples = new Map<string | null, Map<string, Map<number, string>>>();
  readonly unexpected: UnexpectedVideo[] = [];
  readonly unmatched: string[] = [];
  readonly present = new Map<string | null, number>();

  constructor(readonly dimension: string | null) {}

  get samplesPerPrompt(): number {
    return samplesFor(this.dimension);
  }

  /** The file already counted as this generator's sample, or records this one as it. */
  count(model: string | null, prompt: string, sampleIndex: number, relativePath: string): string | null {
    const byPrompt = this.samples.get(model) ?? new Map<string, Map<number, string>>();
    this.samples.set(model, byPrompt);
    const found = byPrompt.get(prompt) ?? new Map<number, string>();
    byPrompt.set(prompt, found);
    const counted = found.get(sampleIndex);
    if (counted !== undefined) return counted;
    found.set(sampleIndex, relativePath);
    this.present.set(model, (this.present.get(model) ?? 0) + 1);
    return null;
  }

  toReport(generators: readonly (string | null)[]): DimensionCompleteness {
    const prompts = [...this.prompts].sort(compareText);
    const missing: MissingSample[] = [];
    const byGenerator: GeneratorCompleteness[] = [];
    const expected = prompts.length * this.samplesPerPrompt;
    for (const model of generators) {
      const before = missing.length;
      const held = this.samples.get(model);
      // The prompts this generator holds some samples of first, then those it holds none of: a prompt that is
      // half there is what an import most likely cut short, and it would otherwise sit pages behind the prompts
      // no file names at all.
      const partlyPresent = prompts.filter((prompt) => held?.has(prompt));
      const whollyMissing = prompts.filter((prompt) => !held?.has(prompt));
      for (const prompt of [...partlyPresent, ...whollyMissing]) {
        const found = held?.get(prompt);
        for (let sampleIndex = 0; sampleIndex < this.samplesPerPrompt; sampleIndex += 1) {
          if (!found?.has(sampleIndex)) missing.push({ model, prompt, dimension: this.dimension, sampleIndex });
        }
      }
      const unexpected = this.unexpected.filter((u) => u.model === model).length;
      byGenerator.push({
        model,
        expected,
        present: this.present.get(model) ?? 0,
        missing: missing.length - before,
        unexpected,
      });
    }
    return {
      dimension: this.dimension,
      prompts: prompts.length,
      samplesPerPrompt: this.samplesPerPrompt,
      expected: expected * generators.length,
      present: byGenerator.reduce((total, g) => total + g.present, 0),
      missing,
      unexpected: [...this.unexpected].sort((a, b) => compareText(a.relativePath, b.relativePath)),
      unmatched: [...this.unmatched].sort(compareText),
      byGenerator,
    };
  }
}

/**
 * Which samples of each dimension's prompts each generator holds: present, missing or unexpected. Every generator
 * (a video's `model`; the videos with none are one group) is expected to hold every sample, as VBench-2.0 samples
 * each model. A video counts for every dimension it is in; an index beyond one dimension's count but within
 * another's (a flat-layout Diversity prompt's 20 samples, of which Mechanics uses 0–2) is neither counted nor
 * flagged there. When two files of one generator claim the same sample, the first by path counts. A video whose
 * prompt (full or as truncated in its name) is not in `promptIndex` is listed as unmatched. `model` set: that
 * generator's videos only ("" for the videos with none). Missing samples are listed by dimension, then generator,
 * then prompt: first the prompts the generator holds some samples of, then those it holds none of (each part in
 * prompt order), each prompt's samples by index.
 * The rules' reference, in memory: requests compute the same report in PostgreSQL, a page at a time
 * (lib/videos/completeness-query.ts), and its tests compare the two.
 */
export function completenessReport({
  promptIndex,
  videos,
  model,
}: {
  promptIndex: PromptIndex;
  videos: readonly CompletenessVideo[];
  model?: string;
}): CompletenessReport {
  const chosen =
    model === undefined ? videos : videos.filter((video) => generatorOf(video.model) === generatorOf(model));
  const generators =
    model === undefined ? reportGenerators(chosen.map((video) => generatorOf(video.model))) : [generatorOf(model)];
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
  const sortedVideos = [...chosen].sort((a, b) => compareText(a.relativePath, b.relativePath));
  for (const video of sortedVideos) {
    const videoDimensions = [...new Set(video.dimensions.map(canonicalDimension))];
    const dimensions: (string | null)[] = videoDimensions.length > 0 ? videoDimensions : [null];
    const prompt = video.prompt === null ? null : (promptIndex.lookup(video.prompt)?.prompt ?? null);
    if (prompt === null) {
      unmatched.push({ relativePath: video.relativePath, dimensions: videoDimensions });
      for (const dimension of dimensions) tallyFor(dimension).unmatched.push(video.relativePath);
      continue;
    }
    const generator = generatorOf(video.model);
    const largestSampleCount = Math.max(...dimensions.map(samplesFor));
    for (const dimension of dimensions) {
      const tally = tallyFor(dimension);
      const flag = (reason: UnexpectedReason, duplicateOf: string | null = null) =>
        tally.unexpected.push({
          relativePath: video.relativePath,
          model: generator,
          prompt,
          sampleIndex: video.sampleIndex,
          reason,
          duplicateOf,
        });
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
      const counted = tally.count(generator, prompt, video.sampleIndex, video.relativePath);
      if (counted !== null) flag("duplicate_sample", counted);
    }
  }

  const dimensions = [...tallies.values()]
    .sort((a, b) => compareDimensionKeys(a.dimension, b.dimension))
    .map((tally) => tally.toReport(generators));
  const sum = (count: (dimension: DimensionCompleteness) => number) =>
    dimensions.reduce((total, dimension) => total + count(dimension), 0);
  return {
    dimensions,
    unmatched,
    generators: sumByGenerator(generators, dimensions),
    totals: {
      generators: generators.length,
      videos: chosen.length,
      expected: sum((dimension) => dimension.expected),
      present: sum((dimension) => dimension.present),
      missing: sum((dimension) => dimension.missing.length),
      unexpected: sum((dimension) => dimension.unexpected.length),
      unmatched: unmatched.length,
    },
  };
}
