/**
 * Reads what the cost before a run needs (lib/judge/runs/cost-estimate.ts): each video's context as the engine builds it
 * (its fields, the chosen frame set's frames and their sizes, the run's items), the endpoint's answer lengths per
 * step, and the project's last stored answers per step. Videos are read a chunk at a time, so a run of 200,000
 * videos holds one chunk's frames at once.
 */
import { clipRefOf, VIDEO_CLIP_SELECT } from "../../videos/video-clip";
import type { JudgeEndpoint, PrismaClient } from "../../generated/prisma/client";
import { keyFramesAndClusters } from "../media/frame-scopes";
import { capabilitiesOf } from "../endpoints/endpoint-capabilities";
import { frameLimitOf } from "../input-modes/plan-request-media";
import { estimateRun, type OutputHistory, type Range, type RunEstimate, type StepEstimate } from "./cost-estimate";
import type { InputMode } from "../input-modes/index";
import type { TemplateSource } from "../prompts/template-source";
import type { FrameSize } from "../endpoints/token-rules";
import type { FrameRef, ItemRef, PipelineDefinition, VideoContext } from "../../task-modules/pipeline-types";

const CHUNK = 500;
/** Past this many videos the estimate reads an even sample of them and scales it to the run. */
export const SAMPLE_VIDEOS = 2_000;
/** Runs of the endpoint whose answers say how long its answers are. */
const HISTORY_RUNS = 20;

export interface PlannedRun {
  projectId: string;
  pipeline: PipelineDefinition;
  settings: unknown;
  endpoint: JudgeEndpoint;
  /** Other endpoints of the project the run's steps call, by role. */
  roleEndpoints: readonly { role: string; endpoint: JudgeEndpoint }[];
  inputMode: InputMode;
  batch: boolean;
  templates: TemplateSource;
  videos: readonly { id: string; frameSetId: string }[];
  /** The run's items with their position among their video's items (item pipelines). */
  items: readonly { itemId: string; videoId: string; position: number }[];
  /** The most videos read before sampling (SAMPLE_VIDEOS unless a test asks for fewer). */
  sampleVideos?: number;
}

export async function estimatePlannedRun(prisma: PrismaClient, run: PlannedRun): Promise<RunEstimate> {
  const [outputHistory, standIns] = await Promise.all([
    outputTokensByStep(prisma, run.endpoint.id, run.pipeline.id),
    lastAnswersByStep(prisma, run.projectId, run.pipeline.id),
  ]);
  const withCapabilities = (e: JudgeEndpoint) => ({ ...e, capabilities: capabilitiesOf(e.capabilities) });
  const endpoint = withCapabilities(run.endpoint);
  const roleEndpoints = new Map(run.roleEndpoints.map((r) => [r.role, withCapabilities(r.endpoint)]));
  const parts: RunEstimate[] = [];
  const sample = sampledVideos(run.videos, run.sampleVideos ?? SAMPLE_VIDEOS);
  // A run of no video still gets its (empty) estimate, with its rule and mode.
  const chunks = sample.length === 0 ? [[]] : chunked(sample, CHUNK);
  for (const chunk of chunks) {
    const { contexts, sizes } = await contextsOf(
      prisma,
      run,
      chunk,
      frameLimitOf(run.inputMode, endpoint.capabilities),
    );
    parts.push(
      estimateRun({
        pipeline: run.pipeline,
        videos: contexts,
        templates: run.templates,
        endpoint,
        roleEndpoints,
        inputMode: run.inputMode,
        batch: run.batch,
        frameSize: (frame) => sizes.get(frame.id) ?? null,
        outputHistory,
        standIns,
      }),
    );
  }
  const merged = mergeEstimates(parts);
  return sample.length < run.videos.length ? scaled(merged, run.videos.length / sample.length, sample.length) : merged;
}

/**
 * The videos the estimate reads: all of them up to SAMPLE_VIDEOS, else that many spread evenly over the run (every
 * n-th in the run's order, the same whoever asks), whose sums are then scaled to the run's size: a run of 200,000
 * videos is estimated without reading its frames twice at its start.
 */
function sampledVideos<T>(videos: readonly T[], most: number): readonly T[] {
  if (videos.length <= most) return videos;
  const step = videos.length / most;
  return Array.from({ length: most }, (_, i) => videos[Math.floor(i * step)]!);
}

/** An estimate of a sample, scaled to the whole run (and saying so). */
function scaled(estimate: RunEstimate, factor: number, sampledCount: number): RunEstimate {
  const scale = (n: number) => Math.round(n * factor);
  const scaleStep = (s: StepEstimate): StepEstimate => ({
    ...s,
    calls: scale(s.calls),
    images: scale(s.images),
    videoFrames: scale(s.videoFrames),
    videoSeconds: Math.round(s.videoSeconds * factor * 100) / 100,
    inputTokens: scale(s.inputTokens),
    outputTokens: scale(s.outputTokens),
    outputTokensRange: [scale(s.outputTokensRange[0]), scale(s.outputTokensRange[1])],
    costUsd: s.costUsd === null ? null : s.costUsd * factor,
    costUsdRange: s.costUsdRange === null ? null : [s.costUsdRange[0] * factor, s.costUsdRange[1] * factor],
  });
  return {
    ...estimate,
    calls: scale(estimate.calls),
    images: scale(estimate.images),
    videoFrames: scale(estimate.videoFrames),
    videoSeconds: Math.round(estimate.videoSeconds * factor * 100) / 100,
    inputTokens: scale(estimate.inputTokens),
    outputTokens: scale(estimate.outputTokens),
    outputTokensRange: [scale(estimate.outputTokensRange[0]), scale(estimate.outputTokensRange[1])],
    costUsd: estimate.costUsd === null ? null : estimate.costUsd * factor,
    costUsdRange:
      estimate.costUsdRange === null ? null : [estimate.costUsdRange[0] * factor, estimate.costUsdRange[1] * factor],
    steps: estimate.steps.map(scaleStep),
    sampledVideos: sampledCount,
  };
}

function chunked<T>(list: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
  return chunks;
}

/** The chunks' estimates as one (the step lists summed per step, in the first chunk's order). */
function mergeEstimates(parts: RunEstimate[]): RunEstimate {
  const [first, ...rest] = parts;
  if (!first || rest.length === 0) return first!;
  const steps = new Map<string, StepEstimate>();
  for (const part of parts)
    for (const step of part.steps) {
      const seen = steps.get(step.stepId);
      steps.set(
        step.stepId,
        seen
          ? {
              ...seen,
              calls: seen.calls + step.calls,
              images: seen.images + step.images,
              videoFrames: seen.videoFrames + step.videoFrames,
              videoSeconds: seen.videoSeconds + step.videoSeconds,
              inputTokens: seen.inputTokens + step.inputTokens,
              outputTokens: seen.outputTokens + step.outputTokens,
              outputTokensRange: addRanges(seen.outputTokensRange, step.outputTokensRange)!,
              costUsd:
                seen.costUsd === null && step.costUsd === null ? null : (seen.costUsd ?? 0) + (step.costUsd ?? 0),
              costUsdRange: addRanges(seen.costUsdRange, step.costUsdRange),
            }
          : { ...step },
      );
    }
  const sum = (pick: (p: RunEstimate) => number) => parts.reduce((total, p) => total + pick(p), 0);
  const priced = parts.some((p) => p.costUsd !== null);
  return {
    ...first,
    calls: sum((p) => p.calls),
    images: sum((p) => p.images),
    videoFrames: sum((p) => p.videoFrames),
    videoSeconds: Math.round(sum((p) => p.videoSeconds) * 100) / 100,
    inputTokens: sum((p) => p.inputTokens),
    outputTokens: sum((p) => p.outputTokens),
    outputTokensRange: parts.map((p) => p.outputTokensRange).reduce((a, b) => addRanges(a, b)!),
    costUsd: priced ? sum((p) => p.costUsd ?? 0) : null,
    costUsdRange: priced ? parts.map((p) => p.costUsdRange).reduce(addRanges) : null,
    steps: [...steps.values()],
  };
}

/** Two ranges summed end by end; a missing one (no price) counts as nothing beside one that is there. */
function addRanges(a: Range | null, b: Range | null): Range | null {
  if (a === null) return b;
  if (b === null) return a;
  return [a[0] + b[0], a[1] + b[1]];
}

type VideoRow = {
  id: string;
  prompt: string | null;
  dimensions: string[];
  model: string | null;
  fps: number | null;
  frameCount: number | null;
  auxiliaryInfo: unknown;
  storageKey: string;
  sha256: string;
  sizeBytes: bigint;
  contentType: string;
  durationS: number | null;
};

/** Each video's context as the engine builds it for the run (lib/judge/engine/judge-video.ts, openVideo). */
async function contextsOf(
  prisma: PrismaClient,
  run: PlannedRun,
  chunk: readonly { id: string; frameSetId: string }[],
  imageLimit: number | null,
) {
  const [videos, frames, items] = await Promise.all([
    prisma.video.findMany({
      where: { id: { in: chunk.map((v) => v.id) }, projectId: run.projectId },
      select: {
        id: true,
        prompt: true,
        dimensions: true,
        model: true,
        fps: true,
        frameCount: true,
        auxiliaryInfo: true,
        ...VIDEO_CLIP_SELECT,
      },
    }),
    prisma.frame.findMany({
      where: { frameSetId: { in: chunk.map((v) => v.frameSetId) } },
      orderBy: { index: "asc" },
      select: {
        id: true,
        frameSetId: true,
        index: true,
        timestampS: true,
        isKeyFrame: true,
        cluster: true,
        storageKey: true,
        sha256: true,
        width: true,
        height: true,
      },
    }),
    itemsOf(prisma, run, chunk),
  ]);
  const byId = new Map<string, VideoRow>(videos.map((v) => [v.id, v]));
  const framesOfSet = new Map<string, FrameRef[]>();
  const sizes = new Map<string, FrameSize>();
  for (const { width, height, frameSetId, ...frame } of frames) {
    framesOfSet.set(frameSetId, [...(framesOfSet.get(frameSetId) ?? []), frame]);
    sizes.set(frame.id, { width, height });
  }
  const contexts = chunk.flatMap((chosen): VideoContext[] => {
    const video = byId.get(chosen.id);
    if (!video) return [];
    const ofVideo = framesOfSet.get(chosen.frameSetId) ?? [];
    return [
      {
        videoId: video.id,
        prompt: video.prompt,
        dimensions: video.dimensions,
        model: video.model,
        fps: video.fps,
        frameCount: video.frameCount,
        auxiliaryInfo: (video.auxiliaryInfo ?? {}) as Record<string, unknown>,
        imageLimit,
        ...keyFramesAndClusters(ofVideo),
        frames: ofVideo,
        items: items.get(video.id) ?? [],
        settings: run.settings,
        // Steps read the run's mode as the engine gives it them (a rubric's second call is made only in a video mode).
        inputMode: run.inputMode,
        // The video's file, as the engine's job names it (lib/judge/engine/video-jobs.ts): a `video-file` step's clip.
        clip: clipRefOf(video),
      },
    ];
  });
  return { contexts, sizes };
}

/** The run's items of the chunk's videos, each video's in position order. */
async function itemsOf(
  prisma: PrismaClient,
  run: PlannedRun,
  chunk: readonly { id: string }[],
): Promise<Map<string, ItemRef[]>> {
  const inChunk = new Set(chunk.map((v) => v.id));
  const wanted = run.items.filter((item) => inChunk.has(item.videoId));
  const result = new Map<string, ItemRef[]>();
  if (wanted.length === 0) return result;
  const rows = await prisma.item.findMany({
    where: { id: { in: wanted.map((item) => item.itemId) }, projectId: run.projectId },
    select: {
      id: true,
      externalId: true,
      kind: true,
      group: true,
      model: true,
      payload: true,
      referenceItem: { select: { id: true, externalId: true, payload: true } },
    },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const item of [...wanted].sort((a, b) => a.position - b.position)) {
    const row = byId.get(item.itemId);
    if (!row) continue;
    const { referenceItem, ...rest } = row;
    result.set(item.videoId, [...(result.get(item.videoId) ?? []), { ...rest, reference: referenceItem }]);
  }
  return result;
}

/** Mean answer tokens of the endpoint's answered, billed calls per step of the pipeline, over its latest runs. */
async function outputTokensByStep(
  prisma: PrismaClient,
  endpointId: string,
  pipeline: string,
): Promise<Map<string, OutputHistory>> {
  const rows = await prisma.$queryRaw<{ stepId: string; mean: number; low: number; high: number }[]>`
    SELECT sr."stepId", avg(c."completionTokens")::float8 AS mean,
      percentile_cont(0.1) WITHIN GROUP (ORDER BY c."completionTokens")::float8 AS low,
      percentile_cont(0.9) WITHIN GROUP (ORDER BY c."completionTokens")::float8 AS high
    FROM llm_call c JOIN step_result sr ON sr.id = c."stepResultId"
    WHERE c."runId" IN (
      SELECT id FROM judge_run WHERE "endpointId" = ${endpointId} AND pipeline = ${pipeline}
      ORDER BY "createdAt" DESC LIMIT ${HISTORY_RUNS})
      AND NOT c.cached AND c."usageKnown" AND c.error IS NULL AND c.status = 'answered' AND NOT c."isRepair"
    GROUP BY sr."stepId"`;
  return new Map(rows.map((row) => [row.stepId, { mean: row.mean, low: row.low, high: row.high }]));
}

/** The project's last stored answer of each step of the pipeline, over its latest runs. */
async function lastAnswersByStep(prisma: PrismaClient, projectId: string, pipeline: string) {
  const rows = await prisma.$queryRaw<{ stepId: string; output: unknown }[]>`
    SELECT DISTINCT ON (sr."stepId") sr."stepId", sr.output
    FROM step_result sr
    WHERE sr."runId" IN (
      SELECT id FROM judge_run WHERE "projectId" = ${projectId} AND pipeline = ${pipeline}
      ORDER BY "createdAt" DESC LIMIT 3)
      AND sr.status = 'done' AND sr.output IS NOT NULL
    ORDER BY sr."stepId", sr."finishedAt" DESC NULLS LAST`;
  return new Map(rows.map((row) => [row.stepId, row.output]));
}
