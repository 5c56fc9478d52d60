/**
 * A vbench2 run's results as VBench-2.0 reports them: per dimension the score (the mean over the videos that are
 * not -1, by the dimension's own rule), n and the excluded count, each video's value and questions; the five
 * category means and the total (scripts/cal_final_score.py). Beside the judge's numbers: people's, recomputed by
 * the same rules from their answers to the questions (gold where adjudicated, else the reviewers' majority, the
 * judge's answer where nobody answered), and VBench's own per-video values from an imported results label set,
 * which also give the six dimensions FrameJury does not judge, so all 18 and the total show in one table.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import { NotFoundError, ValidationError } from "../../errors";
import { cohensKappa } from "../../stats/cohens-kappa";
import type { VideoContext } from "../../task-modules/pipeline-types";
import { matchDimension } from "../../import/vbench-dimensions";
import { questionCategory, type VideoValue } from "./dimension";
import { DIMENSIONS } from "./dimensions";
import type { DimensionSummary, Vbench2VideoSummary } from "./pipeline";
import { vbench2ScoreOf } from "./results-score";
import {
  ALL_DIMENSIONS,
  categoryOf,
  isJudgedDimension,
  vbench2Total,
  type JudgedDimension,
} from "./vbench2-dimensions";

/** The task id of VBench's own results imported as a label set (lib/label-sets). */
const VBENCH_RESULTS_TASK = "vbench";

export interface QuestionResult {
  question: string;
  answer: string | null;
  yes: boolean | null;
  notAsked: string | null;
  frames: number[];
  /** People's answer (gold, else the majority), null when nobody answered. */
  human: boolean | null;
}

export interface VideoResult {
  videoId: string;
  videoPath: string;
  model: string | null;
  prompt: string | null;
  value: number | null;
  excludedReason: string | null;
  humanValue: number | null;
  humanExcludedReason: string | null;
  /** VBench's own value of the video from the label set, when one is given. */
  vbenchValue: number | null;
  deviation: string | null;
  questions: QuestionResult[];
}

export interface DimensionAgreement {
  /** Videos (judge vs VBench) or questions (judge vs people) both have a value for. */
  n: number;
  /** Share of them where the two agree (values within 1e-9). */
  agreement: number | null;
  kappa: number | null;
}

export interface DimensionResult {
  dimension: string;
  category: string | null;
  /** judge: FrameJury's run judged it; vbench: only VBench's imported results have it. */
  source: "judge" | "vbench";
  score: number | null;
  n: number;
  excluded: number;
  humanScore: number | null;
  humanN: number;
  vbenchScore: number | null;
  vbenchN: number;
  judgeVsVbench: DimensionAgreement | null;
  judgeVsHumans: DimensionAgreement | null;
  videos: VideoResult[];
}

export interface Vbench2Results {
  runId: string;
  labelSetId: string | null;
  dimensions: DimensionResult[];
  categories: Record<string, number>;
  total: number;
  /** The same from people's answers (judged dimensions only; VBench's for the others). */
  humans: { categories: Record<string, number>; total: number };
}

const countIncluded = (values: readonly VideoValue[]) =>
  values.filter((v) => v.excludedReason === null && v.value !== null).length;
const countExcluded = (values: readonly VideoValue[]) => values.filter((v) => v.excludedReason !== null).length;

function agreementOf(pairs: readonly [number, number][]): DimensionAgreement {
  if (pairs.length === 0) return { n: 0, agreement: null, kappa: null };
  const same = pairs.filter(([a, b]) => Math.abs(a - b) < 1e-9).length;
  return {
    n: pairs.length,
    agreement: same / pairs.length,
    kappa: cohensKappa(
      pairs.map(([a]) => String(a)),
      pairs.map(([, b]) => String(b)),
    ),
  };
}

/** The context a dimension's rules read, rebuilt from what the run stored (the rules need the prompt and auxiliary info only). */
function ruleContext(video: {
  id: string;
  prompt: string | null;
  dimensions: string[];
  model: string | null;
  auxiliaryInfo: unknown;
}): VideoContext {
  return {
    videoId: video.id,
    prompt: video.prompt,
    dimensions: video.dimensions,
    model: video.model,
    fps: null,
    frameCount: null,
    auxiliaryInfo: (video.auxiliaryInfo ?? {}) as Record<string, unknown>,
    imageLimit: null,
    keyFrames: [],
    clusters: [],
    frames: [],
    items: [],
    settings: {},
  };
}

/** People's answer to each question of a video: gold first, else the reviewers' majority (a tie is no answer). */
async function humanAnswers(prisma: PrismaClient, videoIds: string[]): Promise<Map<string, boolean>> {
  const answers = new Map<string, boolean>();
  if (videoIds.length === 0) return answers;
  const votes = new Map<string, number[]>();
  const judgments = await prisma.humanJudgment.findMany({
    where: { task: "vbench2", targetType: "score", videoId: { in: videoIds }, withdrawn: false, labelSetId: null },
    select: { videoId: true, target: true, value: true },
  });
  for (const j of judgments) {
    const key = `${j.videoId}|${j.target}`;
    votes.set(key, [...(votes.get(key) ?? []), j.value]);
  }
  for (const [key, values] of votes) {
    const yes = values.filter((v) => v === 1).length;
    if (yes * 2 !== values.length) answers.set(key, yes * 2 > values.length);
  }
  const gold = await prisma.goldJudgment.findMany({
    where: { task: "vbench2", targetType: "score", videoId: { in: videoIds } },
    select: { videoId: true, target: true, value: true },
  });
  for (const g of gold) answers.set(`${g.videoId}|${g.target}`, g.value === 1);
  return answers;
}

/** VBench's own per-video values from a results label set, by canonical dimension and video. */
async function vbenchValues(
  prisma: PrismaClient,
  projectId: string,
  labelSetId: string,
): Promise<Map<string, Map<string, number>>> {
  const set = await prisma.labelSet.findFirst({ where: { id: labelSetId, projectId }, select: { id: true } });
  if (!set) throw new NotFoundError("No such label set in this project.");
  const rows = await prisma.humanJudgment.findMany({
    where: { labelSetId, task: VBENCH_RESULTS_TASK },
    select: { videoId: true, target: true, value: true },
  });
  const byDimension = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const dimension = matchDimension(row.target) ?? row.target;
    if (!byDimension.has(dimension)) byDimension.set(dimension, new Map());
    byDimension.get(dimension)!.set(row.videoId, row.value);
  }
  return byDimension;
}

/** VBench's -1 is "not evaluable": left out of the mean, as its evaluators do. */
const vbenchVideoValue = (value: number): VideoValue =>
  value === -1 ? { value: null, excludedReason: "VBench gave -1" } : { value, excludedReason: null };

export interface Vbench2ResultsOptions {
  /** A VBench results label set of the run's project: VBench's own values beside the judge's, and the six dimensions it alone has. */
  labelSetId?: string | null;
  /** Only this generator's videos (VBench evaluates one model at a time). */
  model?: string | null;
}

/** The run's videos (one generator's when `model` is given), with their summaries, in path order. */
function runVideoRows(prisma: PrismaClient, runId: string, model: string | null | undefined) {
  return prisma.runVideo.findMany({
    where: { runId, ...(model ? { video: { model } } : {}) },
    select: {
      summary: true,
      video: {
        select: { id: true, relativePath: true, model: true, prompt: true, dimensions: true, auxiliaryInfo: true },
      },
    },
    orderBy: { video: { relativePath: "asc" } },
  });
}
type RunVideoRow = Awaited<ReturnType<typeof runVideoRows>>[number];

/**
 * A judged dimension's videos: the judge's answers and value, the reviewers' answers and the value they give, and
 * VBench's own value. Each question a reviewer answered adds its (judge, reviewer) pair to `questionPairs`.
 */
function judgedVideos(
  dimension: JudgedDimension,
  rows: readonly RunVideoRow[],
  human: Map<string, boolean>,
  vbenchOf: Map<string, number> | undefined,
  questionPairs: [number, number][],
): VideoResult[] {
  const videos: VideoResult[] = [];
  for (const row of rows) {
    const summary = (row.summary as unknown as Vbench2VideoSummary | null)?.dimensions?.[dimension] as
      DimensionSummary | undefined;
    if (!summary) continue;
    const context = ruleContext(row.video);
    const definition = DIMENSIONS[dimension];
    const questions = summary.questions.map((q, k): QuestionResult => {
      const answer = human.get(`${row.video.id}|${questionCategory(dimension, k)}`) ?? null;
      if (answer !== null && q.yes !== null) questionPairs.push([q.yes ? 1 : 0, answer ? 1 : 0]);
      return {
        question: q.question,
        answer: q.answer,
        yes: q.yes,
        notAsked: q.notAsked,
        frames: q.frames,
        human: answer,
      };
    });
    const anyHuman = questions.some((q) => q.human !== null);
    const humanValue = anyHuman
      ? definition.videoValue(
          questions.map((q) => q.human ?? q.yes),
          context,
          summary.judgeExclusion,
        )
      : null;
    const vbenchValue = vbenchOf?.get(row.video.id) ?? null;
    videos.push({
      videoId: row.video.id,
      videoPath: row.video.relativePath,
      model: row.video.model,
      prompt: row.video.prompt,
      value: summary.value,
      excludedReason: summary.excludedReason,
      humanValue: humanValue?.value ?? null,
      humanExcludedReason: humanValue?.excludedReason ?? null,
      vbenchValue,
      deviation: summary.deviation,
      questions,
    });
  }
  return videos;
}

/** A dimension only VBench evaluates: its videos with VBench's values. */
function vbenchOnlyVideos(rows: readonly RunVideoRow[], vbenchOf: Map<string, number>): VideoResult[] {
  const videos: VideoResult[] = [];
  for (const row of rows) {
    const value = vbenchOf.get(row.video.id);
    if (value === undefined) continue;
    const v = vbenchVideoValue(value);
    videos.push({
      videoId: row.video.id,
      videoPath: row.video.relativePath,
      model: row.video.model,
      prompt: row.video.prompt,
      value: v.value,
      excludedReason: v.excludedReason,
      humanValue: null,
      humanExcludedReason: null,
      vbenchValue: value,
      deviation: null,
      questions: [],
    });
  }
  return videos;
}

/** A dimension's scores (judge, reviewers, VBench) and agreements over its videos. */
function dimensionResult(
  dimension: string,
  videos: VideoResult[],
  videoIds: Set<string>,
  vbenchOf: Map<string, number> | undefined,
  questionPairs: [number, number][],
): DimensionResult {
  const judged = isJudgedDimension(dimension);
  const scoreOf = (values: VideoValue[]) => vbench2ScoreOf(dimension, values);
  const judgeValues = videos.map((v) => ({ value: v.value, excludedReason: v.excludedReason }));
  const humanValues = videos
    .filter((v) => v.humanValue !== null || v.humanExcludedReason !== null)
    .map((v) => ({ value: v.humanValue, excludedReason: v.humanExcludedReason }));
  const vbenchVideo = videos
    .filter((v) => v.vbenchValue !== null && videoIds.has(v.videoId))
    .map((v) => vbenchVideoValue(v.vbenchValue!));
  const judgeVsVbenchPairs = judged
    ? videos
        .filter((v) => v.value !== null && v.vbenchValue !== null && v.vbenchValue !== -1)
        .map((v): [number, number] => [v.value!, v.vbenchValue!])
    : [];
  return {
    dimension,
    category: categoryOf(dimension),
    source: judged ? "judge" : "vbench",
    score: scoreOf(judgeValues),
    n: countIncluded(judgeValues),
    excluded: countExcluded(judgeValues),
    humanScore: humanValues.length ? scoreOf(humanValues) : null,
    humanN: countIncluded(humanValues),
    vbenchScore: vbenchVideo.length ? scoreOf(vbenchVideo) : null,
    vbenchN: countIncluded(vbenchVideo),
    judgeVsVbench: judged && vbenchOf ? agreementOf(judgeVsVbenchPairs) : null,
    judgeVsHumans: judged ? agreementOf(questionPairs) : null,
    videos,
  };
}

/** The run's results; `projectId` is the project the caller was let into (a run of another project is not found). */
export async function vbench2RunResults(
  prisma: PrismaClient,
  projectId: string,
  runId: string,
  options: Vbench2ResultsOptions = {},
): Promise<Vbench2Results> {
  const run = await prisma.judgeRun.findUnique({
    where: { id: runId },
    select: { id: true, projectId: true, pipeline: true },
  });
  if (!run || run.projectId !== projectId) throw new NotFoundError("No such run.");
  if (run.pipeline !== "vbench2") throw new ValidationError("This run is not a VBench-2.0 run.");
  const rows = await runVideoRows(prisma, runId, options.model);
  const human = await humanAnswers(
    prisma,
    rows.map((r) => r.video.id),
  );
  const vbench = options.labelSetId
    ? await vbenchValues(prisma, run.projectId, options.labelSetId)
    : new Map<string, Map<string, number>>();
  const videoIds = new Set(rows.map((r) => r.video.id));

  const dimensions: DimensionResult[] = [];
  for (const dimension of ALL_DIMENSIONS) {
    const vbenchOf = vbench.get(dimension);
    const questionPairs: [number, number][] = [];
    const videos = isJudgedDimension(dimension)
      ? judgedVideos(dimension, rows, human, vbenchOf, questionPairs)
      : vbenchOf
        ? vbenchOnlyVideos(rows, vbenchOf)
        : [];
    if (videos.length === 0) continue;
    dimensions.push(dimensionResult(dimension, videos, videoIds, vbenchOf, questionPairs));
  }
  const scores = Object.fromEntries(dimensions.map((d) => [d.dimension, d.score]));
  const { categories, total } = vbench2Total(scores);
  const humanScores = Object.fromEntries(
    dimensions.map((d) => [d.dimension, d.source === "judge" ? (d.humanScore ?? d.score) : d.score]),
  );
  return {
    runId,
    labelSetId: options.labelSetId ?? null,
    dimensions,
    categories,
    total,
    humans: vbench2Total(humanScores),
  };
}

/**
 * VBench's own results file for one generator (`{"<Dimension>": [score, [{"video_path", "video_results"}]]}`, as
 * its evaluate.py writes `<name>_eval_results.json`): VBench evaluates one model at a time, and its
 * scripts/cal_final_score.py reads this file unchanged. An excluded video's result is -1, as VBench writes it, and
 * so is a video the judge gave no value: the score leaves both out of its mean, so the file agrees with its score.
 * Callers hand in whole results (visibleEvalResults withholds the file from a blind reviewer).
 */
export function evalResultsOf(
  results: Vbench2Results,
): Record<string, [number, { video_path: string; video_results: number }[]]> {
  const out: Record<string, [number, { video_path: string; video_results: number }[]]> = {};
  for (const d of results.dimensions) {
    if (d.score === null) continue;
    out[d.dimension] = [
      d.score,
      d.videos.map((v) => ({
        video_path: v.videoPath,
        video_results: v.excludedReason !== null || v.value === null ? -1 : v.value,
      })),
    ];
  }
  return out;
}
