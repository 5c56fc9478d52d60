/**
 * `npm run bench:judge -- --pairwise`: a pair set over fresh videos (pair i: videos i and i + 1, round the list), on the
 * default aspects, sized to about as many calls as the benchmark's first run (two per pair and aspect), judged by a
 * pairwise worker on the same endpoint settings after a warm-up set of its own. With worker processes (--workers)
 * they take its jobs, as `npm run worker` does.
 */
import type { PgBoss } from "pg-boss";
import { prisma } from "../../lib/db/prisma";
import type { Actor } from "../../lib/auth/actor";
import { projectAccess } from "../../lib/authz/permissions";
import type { JudgeDeps } from "../../lib/judge/engine/judge-deps";
import { fileTemplateSource } from "../../lib/judge/prompts/template-source";
import { DEFAULT_ASPECTS } from "../../lib/pairwise/aspects";
import { createPairwiseRun } from "../../lib/pairwise/judge/pairwise-run";
import { pgBossPairwiseQueue, startPairwiseWorker } from "../../lib/pairwise/judge/pairwise-queue";

export interface PairwiseBenchContext<Run> {
  boss: PgBoss;
  owner: Actor;
  /** The in-process worker's dependencies; null when worker processes judge. */
  workerDeps: JudgeDeps | null;
  concurrency: number;
  seededProject(videos: number, name: string): Promise<{ projectId: string; endpointId: string }>;
  runFinished(runId: string): Promise<void>;
  /** The benchmark's measured run, started by `start` (which waits for it to be done). */
  timedRun(start: () => Promise<string>): Promise<Run>;
}

/** Pairs of the warm-up set, and the frames each video shows (a bench video has 9: three per key frame). */
const WARM_UP_PAIRS = 8;
const FRAMES_PER_VIDEO = 8;

export async function pairwiseBench<Run>(context: PairwiseBenchContext<Run>, calls: number) {
  const { owner } = context;
  const worker = context.workerDeps
    ? startPairwiseWorker(context.boss, context.workerDeps, { concurrency: context.concurrency * 2 })
    : null;
  const aspects = DEFAULT_ASPECTS.length;
  async function pairSet(pairs: number, name: string) {
    const seeded = await context.seededProject(Math.max(2, pairs), name);
    const videos = await prisma.video.findMany({ where: { projectId: seeded.projectId }, select: { id: true } });
    const set = await prisma.pairSet.create({
      data: {
        projectId: seeded.projectId,
        name,
        aspects: DEFAULT_ASPECTS,
        origin: { source: "project" },
        createdById: owner.userId,
      },
    });
    await prisma.pair.createMany({
      data: Array.from({ length: pairs }, (_, i) => {
        const [a, b] = [videos[i % videos.length]!.id, videos[(i + 1) % videos.length]!.id];
        return {
          pairSetId: set.id,
          projectId: seeded.projectId,
          pairKey: `${a}:${b}:${i}`,
          position: i,
          videoAId: a,
          videoBId: b,
          generatorA: `gen-${i % 2}`,
          generatorB: `gen-${(i + 1) % 2}`,
          prompt: `Bench prompt ${i}`,
          nameA: "a.mp4",
          nameB: "b.mp4",
        };
      }),
    });
    return async () => {
      const run = await createPairwiseRun(
        { prisma, queue: pgBossPairwiseQueue(context.boss), templates: fileTemplateSource() },
        await projectAccess(prisma, owner, seeded.projectId, "runs.manage"),
        set.id,
        { endpointId: seeded.endpointId, framesPerVideo: FRAMES_PER_VIDEO },
      );
      await context.runFinished(run.id!);
      return run.id!;
    };
  }
  await (
    await pairSet(WARM_UP_PAIRS, "pairwise warm-up")
  )();
  const pairs = Math.max(1, Math.round(calls / (2 * aspects)));
  console.log(`seeding a pair set of ${pairs} pairs…`);
  const run = await context.timedRun(await pairSet(pairs, "pairwise bench"));
  await worker?.stop(0);
  return { run, pairs, aspects, frames: FRAMES_PER_VIDEO };
}

interface MeasuredRun {
  calls: number;
  seconds: number;
  steps: Record<string, number>;
  duplicateCalls: number;
  load: string;
  cpuMsPerStep: number;
  stubCpuMsPerCall: number;
}

/** The pairwise run's lines of the benchmark's report: its share of the limit beside the first run's. */
export function pairwiseReport(
  result: { run: MeasuredRun; pairs: number; aspects: number; frames: number },
  first: { limit: number; ratio: number; sql: string },
): string {
  const { run } = result;
  const achieved = run.calls / run.seconds;
  const share = achieved / first.limit;
  return `pairwise run: ${result.pairs} pairs × ${result.aspects} aspects × 2 orders, ${result.frames} frames a video (${result.frames * 2} images a call): ${run.calls} calls in ${run.seconds.toFixed(1)} s, steps ${JSON.stringify(run.steps)}, duplicate calls ${run.duplicateCalls}, load average ${run.load}
  achieved: ${achieved.toFixed(2)} calls/s; ratio ${share.toFixed(3)} of the limit beside the hallucination run's ${first.ratio.toFixed(3)}: ${(share / first.ratio).toFixed(2)} of its share (target: the same share)
  worker CPU ${run.cpuMsPerStep.toFixed(2)} ms and ${first.sql} SQL statements per call; the stub's CPU ${run.stubCpuMsPerCall.toFixed(2)} ms per call
`;
}
