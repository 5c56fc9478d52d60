import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../../lib/generated/prisma/client";
import type { Actor } from "../../lib/auth/actor";
import { DEFAULT_ASPECTS, type Aspect } from "../../lib/pairwise/aspects";

export interface ReviewPairsOptions {
  /** Pairs to make, each of two fresh videos of one prompt (video ids given take their place: real clips). */
  pairs?: number;
  videos?: { id: string; model: string; prompt: string }[];
  aspects?: Aspect[];
  blind?: boolean;
  reviewersPerPair?: number;
  assigneeIds?: string[];
  honeypots?: (Prisma.InputJsonValue | null)[];
  name?: string;
}

/**
 * A pair set written row by row (no maker): pairs of two videos of one prompt from two generators, for the review
 * tests and the review e2e. With `videos`, pair i is videos[2i] against videos[2i+1].
 */
export async function seedReviewPairs(
  prisma: PrismaClient,
  owner: Actor,
  projectId: string,
  options: ReviewPairsOptions = {},
) {
  const videos = options.videos ?? (await freshVideos(prisma, owner, projectId, options.pairs ?? 3));
  const set = await prisma.pairSet.create({
    data: {
      projectId,
      name: options.name ?? `Pairs ${randomUUID().slice(0, 8)}`,
      aspects: (options.aspects ?? DEFAULT_ASPECTS.slice(0, 2)) as unknown as Prisma.InputJsonValue,
      origin: { source: "project", design: "all", sample: "same", seed: 1 },
      blind: options.blind ?? true,
      reviewersPerPair: options.reviewersPerPair ?? 1,
      assigneeIds: options.assigneeIds ?? [],
      createdById: owner.userId,
      pairCount: Math.floor(videos.length / 2),
    },
  });
  const pairs = [];
  for (let i = 0; i + 1 < videos.length; i += 2) {
    const [a, b] = [videos[i]!, videos[i + 1]!];
    pairs.push(
      await prisma.pair.create({
        data: {
          pairSetId: set.id,
          projectId,
          pairKey: `${a.id}:${b.id}`,
          position: i / 2,
          videoAId: a.id,
          videoBId: b.id,
          generatorA: a.model,
          generatorB: b.model,
          prompt: a.prompt,
          nameA: `${a.model}-${i}.mp4`,
          nameB: `${b.model}-${i + 1}.mp4`,
          honeypot: options.honeypots?.[i / 2] ?? undefined,
        },
      }),
    );
  }
  return { set, pairs };
}

async function freshVideos(prisma: PrismaClient, owner: Actor, projectId: string, pairs: number) {
  const out = [];
  for (let i = 0; i < pairs * 2; i++) {
    const model = i % 2 === 0 ? "GenAlpha" : "GenBeta";
    const prompt = `a prompt number ${Math.floor(i / 2)}`;
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: randomUUID(),
        sizeBytes: 1000,
        fileName: `${model}-${i}.mp4`,
        relativePath: `${model}/${i}.mp4`,
        storageKey: `test/${randomUUID()}`,
        contentType: "video/mp4",
        status: "ready",
        prompt,
        model,
        fps: 8,
        durationS: 2,
        width: 320,
        height: 240,
        createdById: owner.userId,
      },
    });
    out.push({ id: video.id, model, prompt });
  }
  return out;
}
