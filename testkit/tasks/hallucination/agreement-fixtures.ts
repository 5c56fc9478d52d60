import { insertEndpoint, insertFinishedRun } from "../../testing/raw-rows";
import { createRunVideo } from "../../testing/run-video-fixture";
import type { PrismaClient } from "../../../lib/generated/prisma/client";
import type { Actor } from "../../../lib/auth/actor";

export interface SeedScore {
  stepId: "static_hallucination" | "dynamic_hallucination" | "inconsistency";
  scopeIndex: number;
  category: string;
  value: number;
}

export interface SeedOutcome {
  verdict: boolean;
  overall: number;
  S?: number;
  D?: number;
  I?: number;
}

/**
 * A finished hallucination run over existing (framed) videos, written directly: steps with a template
 * hash, scores, and run_video rows with the summary columns. Returns the score ids by
 * `<videoIndex>:<stepId>:<scopeIndex>:<category>`.
 */
export async function seedFinishedRun(
  prisma: PrismaClient,
  owner: Actor,
  projectId: string,
  videoIds: readonly string[],
  options: {
    endpointName?: string;
    templateHash?: string;
    scores: (videoIndex: number) => SeedScore[];
    outcome: (videoIndex: number) => SeedOutcome;
  },
) {
  // Raw rows: migration tests seed databases whose endpoint and run tables lack later columns.
  const endpoint = { name: options.endpointName ?? "judge", model: "stub-model" };
  const endpointId = await insertEndpoint(prisma, {
    projectId,
    name: endpoint.name,
    baseUrl: "http://127.0.0.1:1/v1",
    model: endpoint.model,
    createdById: owner.userId,
  });
  const run = {
    id: await insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: owner.userId,
      endpointSnapshot: endpoint,
    }),
  };
  const scoreIds = new Map<string, string>();
  for (const [v, videoId] of videoIds.entries()) {
    const frameSet = await prisma.frameSet.findFirstOrThrow({ where: { videoId }, select: { id: true } });
    const steps = new Map<string, string>();
    for (const s of options.scores(v)) {
      const stepKey = `${s.stepId}:${s.scopeIndex}`;
      let stepResultId = steps.get(stepKey);
      if (!stepResultId) {
        const step = await prisma.stepResult.create({
          data: {
            runId: run.id,
            videoId,
            stepId: s.stepId,
            scopeIndex: s.scopeIndex,
            status: "done",
            templateId: `hallucination/${s.stepId}`,
            templateHash: options.templateHash ?? "0123456789abcdef",
          },
          select: { id: true },
        });
        stepResultId = step.id;
        steps.set(stepKey, stepResultId);
      }
      const score = await prisma.score.create({
        data: {
          runId: run.id,
          videoId,
          stepResultId,
          stepId: s.stepId,
          scopeIndex: s.scopeIndex,
          category: s.category,
          value: s.value,
        },
        select: { id: true },
      });
      scoreIds.set(`${v}:${s.stepId}:${s.scopeIndex}:${s.category}`, score.id);
    }
    const o = options.outcome(v);
    await createRunVideo(prisma, {
      runId: run.id,
      videoId,
      frameSetId: frameSet.id,
      status: "done",
      summary: { S: o.S ?? null, D: o.D ?? null, I: o.I ?? null, overall: o.overall, hallucination: o.verdict },
      metrics: { S: o.S, D: o.D, I: o.I, overall: o.overall, verdict: o.verdict },
    });
  }
  return { runId: run.id, endpointId, scoreIds };
}
